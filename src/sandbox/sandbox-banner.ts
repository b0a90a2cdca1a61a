/** Prints the sandbox demo credentials once, at the first start of a fresh database. */
import type { Config } from '../config/index.ts';
import type { DemoOperator } from './demo-operator.ts';

export function printSandboxCredentials(
  seeded: {
    company: { id: string; name: string };
    affiliate: { user_id: string };
    credential: { consumer_key: string; consumer_secret: string };
    /** The console's demo operator (src/sandbox/demo-operator.ts). */
    operator: DemoOperator;
  },
  config: Pick<Config, 'host' | 'port'>,
): void {
  const base = `http://${config.host}:${config.port}`;
  const { consumer_key: key, consumer_secret: secret } = seeded.credential;
  // Written to stderr as a banner, not a log line: it is shown once and never stored in clear.
  process.stderr.write(
    [
      '',
      '  autofin sandbox: a demo company and a demo operator were created. Save these now; the secret and',
      '  the password are not shown again.',
      `    company:         ${seeded.company.name} (${seeded.company.id})`,
      `    affiliate:       ${seeded.affiliate.user_id}`,
      `    consumer_key:    ${seeded.credential.consumer_key}`,
      `    consumer_secret: ${seeded.credential.consumer_secret}`,
      '',
      `  Operator console: ${base}/console`,
      `    e-mail:          ${seeded.operator.email}`,
      `    password:        ${seeded.operator.password}`,
      '',
      `  TOKEN=$(curl -s -X POST ${base}/auth/token -H 'Content-Type: application/json' -H 'Accept-Version: v1' \\`,
      `    -d '{"consumer_key":"${key}","consumer_secret":"${secret}"}' \\`,
      `    | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
      `  curl -s ${base}/mx/b2b/autofin/api/catalogs/zip-code/06700 -H "Authorization: Bearer $TOKEN"`,
      '',
      '  Read PINs through the API, make the SMS, e-mail and bureau providers fail on purpose, and copy ready',
      `  test people: docs/sandbox.md, served at ${base}/docs/sandbox.md`,
      '',
    ].join('\n') + '\n',
  );
}
