import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loggableUrl } from './loggable-url.ts';
import { leadStatuses } from '../lead-status/index.ts';
import { DECISIONS } from '../prequalification/index.ts';
import { OUTCOME_STATUSES } from '../outcomes/index.ts';

test('a URL keeps its path and the declared filters; any other parameter is replaced, key and value', () => {
  const cases: [string, string][] = [
    ['/mx/b2b/autofin/api/leads/0f0e', '/mx/b2b/autofin/api/leads/0f0e'],
    ['/mx/b2b/autofin/api/leads?status=VERIFIED&limit=5', '/mx/b2b/autofin/api/leads?status=VERIFIED&limit=5'],
    ['/admin/operators?access_token=s3cr3t-admin-token', '/admin/operators?[redacted]'],
    ['/mx/b2b/autofin/api/leads?limit=2&access_token=afn1.abc.def', '/mx/b2b/autofin/api/leads?limit=2&[redacted]'],
    ['/admin/leads?q=Anacleta%20Zubizarreta&outcome=FUNDED', '/admin/leads?[redacted]&outcome=FUNDED'],
    ['/x?afn1.eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjay0xMjM0NTY3ODkwIn0.sig', '/x?[redacted]'],
    ['/x?debug', '/x?[redacted]'],
    [`/x?cursor=${'c'.repeat(200)}`, '/x?cursor=[redacted]'],
    ['/x?', '/x?'],
  ];
  for (const [url, logged] of cases) assert.equal(loggableUrl(url), logged, url);
});

test('a token never reaches the line: as a bare key, as a key with a value, or as a declared filter’s value', () => {
  const token = 'Zx9-adminToken_0123456789abcdefGHIJ'; // 35 characters, as an ADMIN_TOKEN may be
  const short = 'ABCDEFGHIJKLMNOPQRST'; // 20 capitals, the shape of a status
  const cases: [string, string][] = [
    [`/admin/leads?${token}`, '/admin/leads?[redacted]'],
    [`/admin/leads?${short}`, '/admin/leads?[redacted]'],
    [`/admin/leads?${token}=1`, '/admin/leads?[redacted]'],
    [`/admin/leads?cursor=${token}`, '/admin/leads?cursor=[redacted]'],
    [`/admin/leads?status=${short}&limit=${token}`, '/admin/leads?status=[redacted]&limit=[redacted]'],
    [
      `/admin/leads?createdFrom=${token}&companyId=${token}`,
      '/admin/leads?createdFrom=[redacted]&companyId=[redacted]',
    ],
    [`/console/leads?from=${token}&notice=${token}`, '/console/leads?from=[redacted]&[redacted]'],
  ];
  for (const [url, logged] of cases) assert.equal(loggableUrl(url), logged, url);
});

test('declared filters with their own formats are logged as sent', () => {
  const cursor = Buffer.from('2026-11-28T12:00:00.000Z|0b7e6a52-1f0c-4d8e-9a3b-5c2d1e0f9a8b').toString('base64url');
  const auditCursor = Buffer.from('a1234').toString('base64url');
  const deliveryCursor = Buffer.from(
    JSON.stringify(['2026-11-28T12:00:00.000Z', '0b7e6a52-1f0c-4d8e-9a3b-5c2d1e0f9a8b']),
  ).toString('base64url');
  const urls = [
    `/admin/leads?cursor=${cursor}&limit=20&companyId=0b7e6a52-1f0c-4d8e-9a3b-5c2d1e0f9a8b`,
    `/admin/audit?cursor=${auditCursor}`,
    `/admin/webhooks/x/deliveries?cursor=${deliveryCursor}`,
    '/admin/leads?createdFrom=2026-01-01&createdTo=2026-02-01T00:00:00Z&format=csv',
    '/console/reports?from=2026-01-01&to=2026-01-31',
  ];
  for (const url of urls) assert.equal(loggableUrl(url), url);
});

test('every status, decision and outcome a filter takes is logged as sent', () => {
  const values = [...leadStatuses, ...DECISIONS, ...OUTCOME_STATUSES];
  for (const value of values) assert.equal(loggableUrl(`/admin/leads?status=${value}`), `/admin/leads?status=${value}`);
});
