import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstPassword, generatePassword, minimumPasswordLength, type PasswordInput } from './operator-password.ts';

/** A terminal that answers the prompts in order and records what was asked. */
function terminal(answers: (string | undefined)[]): PasswordInput & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    interactive: true,
    readAll: async () => assert.fail('a terminal is prompted, never read to its end'),
    askHidden: async (question) => {
      asked.push(question);
      return answers.shift();
    },
  };
}

const piped = (text: string): PasswordInput => ({
  interactive: false,
  readAll: async () => text,
  askHidden: async () => assert.fail('piped stdin is never prompted'),
});

test('a generated password has 24 characters of the URL-safe alphabet and differs every time', () => {
  const passwords = new Set(Array.from({ length: 50 }, generatePassword));
  assert.equal(passwords.size, 50);
  for (const password of passwords) assert.match(password, /^[A-Za-z0-9_-]{24}$/);
});

test('at a terminal the password is asked twice and kept when both match', async () => {
  const input = terminal(['correct horse battery', 'correct horse battery']);
  assert.deepEqual(await firstPassword('prompt-or-generate', input), {
    ok: true,
    password: 'correct horse battery',
    generated: false,
  });
  assert.equal(input.asked.length, 2);
  assert.match(input.asked[0], /Enter to generate/);
});

test('Enter on the empty prompt generates a password without asking again', async () => {
  const input = terminal(['']);
  const chosen = await firstPassword('prompt-or-generate', input);
  assert.ok(chosen.ok && chosen.generated, JSON.stringify(chosen));
  assert.match(chosen.password, /^[A-Za-z0-9_-]{24}$/);
  assert.equal(input.asked.length, 1);
});

test('at a terminal a short password, two different ones, or Ctrl-C are refused', async () => {
  const short = terminal(['elevenchars']);
  assert.deepEqual(await firstPassword('prompt-or-generate', short), {
    ok: false,
    message: `the password has 11 characters: it needs at least ${minimumPasswordLength}`,
  });
  assert.equal(short.asked.length, 1, 'a short password is refused before it is asked again');
  assert.deepEqual(
    await firstPassword('prompt-or-generate', terminal(['correct horse battery', 'correct horse batterz'])),
    {
      ok: false,
      message: 'the two passwords differ',
    },
  );
  assert.deepEqual(await firstPassword('prompt-or-generate', terminal([undefined])), {
    ok: false,
    message: 'cancelled',
  });
  assert.deepEqual(await firstPassword('prompt-or-generate', terminal(['correct horse battery', undefined])), {
    ok: false,
    message: 'cancelled',
  });
});

test('when stdin is not a terminal a password is generated and stdin is not read', async () => {
  const chosen = await firstPassword('prompt-or-generate', piped('never read'));
  assert.ok(chosen.ok && chosen.generated);
  assert.notEqual(chosen.password, 'never read');
});

test('--password-stdin takes stdin without its final line break, and refuses fewer than 12 characters', async () => {
  assert.deepEqual(await firstPassword('stdin', piped('from a secrets manager\n')), {
    ok: true,
    password: 'from a secrets manager',
    generated: false,
  });
  assert.deepEqual(await firstPassword('stdin', piped('twelve chars\r\n')), {
    ok: true,
    password: 'twelve chars',
    generated: false,
  });
  assert.deepEqual(await firstPassword('stdin', piped('ñandú-12345')), {
    ok: false,
    message: 'the password has 11 characters: it needs at least 12',
  });
  assert.equal((await firstPassword('stdin', piped(''))).ok, false);
});
