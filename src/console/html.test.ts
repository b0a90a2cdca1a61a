import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { html } from './html.ts';

describe('console html template', () => {
  test('escapes every interpolated text and leaves nested templates as markup', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    const page = html`<p title="${name}">${name}</p>${html`<b>${'a<b'}</b>`}`;
    assert.equal(
      page.text,
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p><b>a&lt;b</b>',
    );
  });

  test('renders lists, numbers and skips null, undefined and booleans', () => {
    assert.equal(html`${[1, html`<i>2</i>`, null, undefined, false]}`.text, '1<i>2</i>');
  });
});
