import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggableUrl } from './loggable-url.ts';

test('a URL keeps its path and the values of declared filters; any other query value is replaced', () => {
  const cases: [string, string][] = [
    ['/mx/b2b/autofin/api/leads/0f0e', '/mx/b2b/autofin/api/leads/0f0e'],
    ['/mx/b2b/autofin/api/leads?status=VERIFIED&limit=5', '/mx/b2b/autofin/api/leads?status=VERIFIED&limit=5'],
    ['/admin/operators?access_token=s3cr3t-admin-token', '/admin/operators?access_token=[redacted]'],
    [
      '/mx/b2b/autofin/api/leads?limit=2&access_token=afn1.abc.def',
      '/mx/b2b/autofin/api/leads?limit=2&access_token=[redacted]',
    ],
    ['/admin/leads?q=Anacleta%20Zubizarreta&outcome=FUNDED', '/admin/leads?q=[redacted]&outcome=FUNDED'],
    ['/x?afn1.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjay0xMjM0NTY3ODkwIn0.sig', '/x?[redacted]'],
    ['/x?debug', '/x?debug'],
    [`/x?cursor=${'c'.repeat(200)}`, '/x?cursor=[redacted]'],
    ['/x?', '/x?'],
  ];
  for (const [url, logged] of cases) assert.equal(loggableUrl(url), logged, url);
});
