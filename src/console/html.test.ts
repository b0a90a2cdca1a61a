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

  test('bidirectional controls from a partner are shown as U+FFFD, in text and in attributes', () => {
    // Written as escapes: the characters themselves would reorder this source file too.
    const controls = [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ];
    for (const control of controls) {
      const spoof = `factura${control}fdp.exe`;
      assert.equal(
        html`<td title="${spoof}">${spoof}</td>`.text,
        '<td title="factura\uFFFDfdp.exe">factura\uFFFDfdp.exe</td>',
      );
    }
    // Letters of right-to-left scripts and joiners are text, not controls: kept.
    assert.equal(html`${'שלום \u200D عربي'}`.text, 'שלום \u200D عربي');
  });

  test('renders lists, numbers and skips null, undefined and booleans', () => {
    assert.equal(html`${[1, html`<i>2</i>`, null, undefined, false]}`.text, '1<i>2</i>');
  });
});
