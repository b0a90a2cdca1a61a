import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { adminToken, buildTestApp, type TestApp } from '../../test/helper.ts';
import { runAutofin, type CliRun } from '../../test/cli-run.ts';
import { passwordMatches } from '../operators/index.ts';

const bin = new URL('../../bin/autofin.mjs', import.meta.url).pathname;

let t: TestApp;
let url: string;

const env = () => ({ ...process.env, ADMIN_TOKEN: adminToken, AUTOFIN_URL: url });

/** Runs the CLI as a script would (in this process, test/cli-run.ts): stdin is a pipe, given `stdin`, or empty. */
const autofin = (args: string[], stdin?: string): Promise<CliRun> => runAutofin(url, args, {}, stdin);

const storedHash = async (id: string): Promise<string | null> => {
  const { rows } = await t.database.db.query<{ password_hash: string | null }>(
    'select password_hash from operators where id = $1',
    [id],
  );
  assert.equal(rows.length, 1, `operator ${id} not stored`);
  return rows[0].password_hash;
};
const operatorCount = async () => (await t.container.operators.list()).items.length;

describe('autofin operators create: the first password', () => {
  before(async () => {
    t = await buildTestApp();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  passwordTests();
  usageAndRoleTests();
});

/** A generated, piped or too short password. */
function passwordTests(): void {
  test('with --email and no terminal, a generated password is printed once with the key and verifies', async () => {
    const run = await autofin([
      'operators',
      'create',
      '--name',
      'Ana',
      '--role',
      'admin',
      '--email',
      'ana.cli@example.mx',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const created = JSON.parse(run.stdout);
    assert.match(created.key, /^op_/);
    assert.equal(created.email, 'ana.cli@example.mx');
    assert.match(created.password, /^[A-Za-z0-9_-]{20,}$/);
    assert.equal(run.stdout.split(created.password).length - 1, 1, 'the password is printed exactly once');
    assert.ok(!run.stderr.includes(created.password));
    const hash = await storedHash(created.id);
    assert.ok(
      hash && (await passwordMatches(created.password, hash)),
      'the stored hash verifies against the printed password',
    );
    assert.equal(await passwordMatches(`${created.password}x`, hash!), false);
  });

  test('--password-stdin stores the piped password and never prints it', async () => {
    const password = 'una frase de paso larga';
    const run = await autofin(
      [
        'operators',
        'create',
        '--name',
        'Beto',
        '--role',
        'analyst',
        '--email',
        'beto.cli@example.mx',
        '--password-stdin',
      ],
      `${password}\n`,
    );
    assert.equal(run.code, 0, run.stderr);
    const created = JSON.parse(run.stdout);
    assert.equal(created.role, 'analyst');
    assert.equal(created.password, undefined);
    assert.ok(!`${run.stdout}${run.stderr}`.includes(password), 'a typed password is never echoed');
    assert.ok(await passwordMatches(password, (await storedHash(created.id))!));
  });

  test('a piped password shorter than 12 characters is refused before the service is called', async () => {
    const before = await operatorCount();
    const run = await autofin(
      [
        'operators',
        'create',
        '--name',
        'Ceci',
        '--role',
        'admin',
        '--email',
        'ceci.cli@example.mx',
        '--password-stdin',
      ],
      'corta-11ch\n',
    );
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.deepEqual(JSON.parse(run.stderr), { message: 'the password has 10 characters: it needs at least 12' });
    assert.equal(await operatorCount(), before, 'no operator was created');
  });
}

/** Without --email, --role, and the password prompt on a terminal. */
function usageAndRoleTests(): void {
  test(
    'without --email nothing changes: no password asked, ' + 'stored or printed; --password-stdin alone is wrong usage',
    async () => {
      const run = await autofin(['operators', 'create', '--name', 'Dani', '--role', 'analyst']);
      assert.equal(run.code, 0, run.stderr);
      const created = JSON.parse(run.stdout);
      assert.deepEqual(Object.keys(created).sort(), ['createdAt', 'email', 'id', 'key', 'name', 'role']);
      assert.equal(await storedHash(created.id), null);

      const wrong = await autofin(
        ['operators', 'create', '--name', 'Dani', '--role', 'analyst', '--password-stdin'],
        'una frase de paso larga',
      );
      assert.equal(wrong.code, 2);
      assert.match(wrong.stderr, /--password-stdin needs --email/);
    },
  );

  test('--role officer makes a loan officer, who may then set outcomes', async () => {
    const run = await autofin(['operators', 'create', '--name', 'Olga', '--role', 'officer']);
    assert.equal(run.code, 0, run.stderr);
    const created = JSON.parse(run.stdout);
    assert.equal(created.role, 'officer');
    assert.match(created.key, /^op_/);
  });

  // A real terminal: `script` runs the CLI on a pseudo-terminal whose input is this test's typing.
  const hasScript = existsSync('/usr/bin/script');
  test(
    'at a terminal the password is asked twice, hidden, and never shown',
    { skip: !hasScript && 'no /usr/bin/script' },
    async () => {
      const password = 'tecleada en la terminal';
      const command = [
        process.execPath,
        bin,
        'operators',
        'create',
        '--name',
        'Eva',
        '--role',
        'admin',
        '--email',
        'eva.cli@example.mx',
      ]
        .map((word) => `'${word}'`)
        .join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: env() });
      let screen = '';
      child.stdout.on('data', (chunk) => (screen += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      const waitFor = async (text: string) => {
        const deadline = Date.now() + 30_000;
        while (!screen.includes(text)) {
          if (Date.now() > deadline) assert.fail(`no "${text}" on the terminal:\n${screen}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      await waitFor('Enter to generate one): ');
      child.stdin.write(`${password}\r`);
      await waitFor('The same password again: ');
      child.stdin.write(`${password}\r`);
      assert.equal(await exited, 0, screen);
      assert.ok(!screen.includes(password), `the typed password appeared on the terminal:\n${screen}`);
      const created = JSON.parse(screen.slice(screen.indexOf('{')));
      assert.equal(created.password, undefined);
      assert.ok(await passwordMatches(password, (await storedHash(created.id))!));
    },
  );
}
