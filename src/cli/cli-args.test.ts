import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultUrl, parseCli, type ParsedCli } from './cli-args.ts';

const env = { ADMIN_TOKEN: 'admin-token-0123456789' };
const run = (command: object, url = defaultUrl): ParsedCli =>
  ({ kind: 'run', command, url, token: env.ADMIN_TOKEN }) as ParsedCli;
const companyId = '3f2b8c1e-7d4a-4c2e-9b1a-0d6e5f4a3b2c';

test('every command parses into what it will ask the admin API', () => {
  const cases: [string[], ParsedCli][] = [
    [
      ['companies', 'create', '--name', 'Autos del Norte'],
      run({ name: 'companies create', companyName: 'Autos del Norte' }),
    ],
    [['companies', 'create', '--name=Autos'], run({ name: 'companies create', companyName: 'Autos' })],
    [['companies', 'list'], run({ name: 'companies list' })],
    [['companies', 'show', companyId], run({ name: 'companies show', companyId })],
    [['credentials', 'create', '--company', companyId], run({ name: 'credentials create', companyId })],
    [['credentials', 'list', '--company', companyId], run({ name: 'credentials list', companyId })],
    [['affiliates', 'list', '--company', companyId], run({ name: 'affiliates list', companyId })],
    [['credentials', 'revoke', 'ck_abc'], run({ name: 'credentials revoke', consumerKey: 'ck_abc' })],
    [
      ['affiliates', 'create', '--company', companyId, '--user-type', 'SELLER'],
      run({ name: 'affiliates create', companyId, userType: 'SELLER' }),
    ],
    [
      ['affiliates', 'create', '--company', companyId, '--user-type', 'SELLER', '--user-id', companyId],
      run({ name: 'affiliates create', companyId, userType: 'SELLER', userId: companyId }),
    ],
    [
      ['catalogs', 'import', '--vehicles', 'v.csv.gz'],
      run({ name: 'catalogs import', kind: 'vehicles', file: 'v.csv.gz' }),
    ],
    [['catalogs', 'import', '--zip-codes', 'z.csv'], run({ name: 'catalogs import', kind: 'zipCodes', file: 'z.csv' })],
    [
      ['operators', 'create', '--name', 'Ana', '--role', 'analyst', '--json'],
      run({ name: 'operators create', operatorName: 'Ana', role: 'analyst' }),
    ],
    [
      ['operators', 'create', '--name', 'Ana', '--role', 'admin', '--email', 'a@x.mx'],
      run({
        name: 'operators create',
        operatorName: 'Ana',
        role: 'admin',
        email: 'a@x.mx',
        password: 'prompt-or-generate',
      }),
    ],
    [
      ['operators', 'create', '--name', 'Ana', '--role', 'admin', '--email', 'a@x.mx', '--password-stdin'],
      run({ name: 'operators create', operatorName: 'Ana', role: 'admin', email: 'a@x.mx', password: 'stdin' }),
    ],
    [['operators', 'list'], run({ name: 'operators list' })],
    [['operators', 'revoke', companyId], run({ name: 'operators revoke', operatorId: companyId })],
    [
      [
        'leads',
        'list',
        '--company',
        companyId,
        '--status',
        'PREQUALIFIED',
        '--created-from',
        '2026-01-01',
        '--limit',
        '5',
      ],
      run({ name: 'leads list', query: { companyId, status: 'PREQUALIFIED', createdFrom: '2026-01-01', limit: '5' } }),
    ],
    [['leads', 'show', companyId, '--json'], run({ name: 'leads show', leadId: companyId })],
    [
      ['leads', 'export', '--format', 'csv', '--decision', 'PREQUALIFIED'],
      run({ name: 'leads export', query: { decision: 'PREQUALIFIED', format: 'csv' } }),
    ],
    [['leads', 'erase', companyId], run({ name: 'leads erase', leadId: companyId })],
    [['leads', 'purge', '--dry-run'], run({ name: 'leads purge', dryRun: true })],
    [['leads', 'purge'], run({ name: 'leads purge', dryRun: false })],
    [['audit', 'list', '--cursor', 'abc'], run({ name: 'audit list', query: { cursor: 'abc' } })],
  ];
  for (const [argv, expected] of cases) assert.deepEqual(parseCli(argv, env), expected, argv.join(' '));
});

test('--url wins over AUTOFIN_URL, which wins over the default; a trailing slash is dropped', () => {
  const argv = ['companies', 'list'];
  assert.equal((parseCli(argv, env) as { url: string }).url, 'http://127.0.0.1:3000');
  assert.equal(
    (parseCli(argv, { ...env, AUTOFIN_URL: 'https://a.example/' }) as { url: string }).url,
    'https://a.example',
  );
  assert.equal(
    (parseCli([...argv, '--url', 'http://b:8080'], { ...env, AUTOFIN_URL: 'https://a.example' }) as { url: string })
      .url,
    'http://b:8080',
  );
});

test('--help and -h ask for the help, with or without a command and without a token', () => {
  for (const argv of [['--help'], ['-h'], ['companies', 'create', '--help']]) {
    assert.deepEqual(parseCli(argv, {}), { kind: 'help' }, argv.join(' '));
  }
});

test('wrong usage is a usage error that says what is wrong', () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [[], env, /no command/],
    [['companies'], env, /unknown command "companies"/],
    [['companies', 'delete'], env, /unknown command "companies delete"/],
    [['company', 'list'], env, /unknown command "company list": did you mean "companies list"\?/],
    [['credential', 'revoke', 'ck_a'], env, /did you mean "credentials revoke"\?/],
    [['affiliates', 'lsit'], env, /did you mean "affiliates list"\?/],
    [['deploy', 'everything'], env, /^unknown command "deploy everything"$/],
    [['companies', 'show'], env, /takes COMPANY_ID, got 0/],
    [['companies', 'create'], env, /--name is required/],
    [['companies', 'create', '--name', '  '], env, /--name is required/],
    [['companies', 'create', '--name'], env, /--name/],
    [['companies', 'list', '--name', 'x'], env, /companies list does not take --name/],
    [['companies', 'list', 'extra'], env, /takes no arguments, got 1/],
    [['credentials', 'revoke'], env, /takes CONSUMER_KEY, got 0/],
    [['credentials', 'create'], env, /--company is required/],
    [['affiliates', 'create', '--company', companyId], env, /--user-type is required/],
    [['catalogs', 'import'], env, /exactly one of --vehicles FILE or --zip-codes FILE/],
    [['catalogs', 'import', '--vehicles', 'a', '--zip-codes', 'b'], env, /exactly one/],
    [['companies', 'list', '--colour', 'red'], env, /colour/],
    [['companies', 'list', '--url', 'ftp://x'], env, /--url must start with http/],
    [['companies', 'list', '--url', 'not a url'], env, /--url must be a URL/],
    [['companies', 'list'], {}, /ADMIN_TOKEN is not set/],
    [['operators', 'create', '--name', 'x'], env, /--role is required/],
    [['leads', 'show'], env, /takes LEAD_ID, got 0/],
    [['leads', 'purge', '--format', 'csv'], env, /leads purge does not take --format/],
  ];
  for (const [argv, given, message] of cases) {
    const parsed = parseCli(argv, given);
    assert.equal(parsed.kind, 'usage-error', `${argv.join(' ')}: ${JSON.stringify(parsed)}`);
    assert.match((parsed as { message: string }).message, message, argv.join(' '));
  }
});

test('an operator key in AUTOFIN_OPERATOR_KEY is used instead of ADMIN_TOKEN', () => {
  const parsed = parseCli(['leads', 'list'], { ADMIN_TOKEN: 'admin-token-0123456789', AUTOFIN_OPERATOR_KEY: 'op_abc' });
  assert.equal((parsed as { token: string }).token, 'op_abc');
});
