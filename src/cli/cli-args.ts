/**
 * The `autofin` command line, parsed without side effects: argv and the environment in, either a
 * command to run, the help, or a usage error out. The HTTP side lives in admin-client.ts.
 */
import { parseArgs } from 'node:util';
import type { CatalogKind } from '../catalogs/index.ts';
import type { PasswordSource } from './operator-password.ts';

export const defaultUrl = 'http://127.0.0.1:3000';

export const usage = `autofin: operate an autofin service through its admin API (prints JSON)

Usage:
  autofin companies create --name NAME
  autofin companies list
  autofin companies show COMPANY_ID
  autofin credentials create --company COMPANY_ID
  autofin credentials list --company COMPANY_ID
  autofin credentials revoke CONSUMER_KEY
  autofin affiliates create --company COMPANY_ID --user-type TYPE [--user-id UUID]
  autofin affiliates list --company COMPANY_ID
  autofin catalogs import --vehicles FILE
  autofin catalogs import --zip-codes FILE
  autofin operators create --name NAME --role admin|analyst|officer [--email EMAIL [--password-stdin]]
                                                (prints the key once; with --email, see "Passwords")
  autofin operators list
  autofin operators revoke OPERATOR_ID
  autofin leads list [FILTERS] [--limit N] [--cursor C]
  autofin leads show LEAD_ID                    (audited)
  autofin leads personal-data LEAD_ID           (everything held about the person, decrypted; audited)
  autofin leads export [FILTERS] [--format ndjson|csv]   (the export itself on stdout; audited)
  autofin leads erase LEAD_ID                   (erases the lead's personal data; audited)
  autofin leads purge [--dry-run]               (the retention purge, now)
  autofin audit list [--limit N] [--cursor C]
  autofin keys status                           (the encryption keys and the stored values under each)
  autofin keys reencrypt [--limit N]            (re-encrypts every value of a previous key with the current
                                                 one, N per call (default 1000), with a progress bar)
  autofin backup --out FILE                     (a consistent copy of the running embedded database)
  autofin restore FILE [--data-dir DIR]         (into an empty DATA_DIR, default $DATA_DIR, else ./data)

Filters: --company ID --status S --decision D --affiliate USER_ID --created-from DATE --created-to DATE
  autofin webhooks create --endpoint-url URL [--event-types TYPE,TYPE] [--description TEXT]
  autofin webhooks list
  autofin webhooks enable|disable|delete|rotate-secret|test|deliveries ENDPOINT_ID
  autofin webhooks retry ENDPOINT_ID DELIVERY_ID

Passwords: with --email the operator also gets a password (at least 12 characters) to sign in to the
  console. At a terminal it is asked twice, hidden (Enter on an empty prompt generates one); with
  --password-stdin it is read from stdin (one line); otherwise one is generated. A generated password
  is printed once, as "password" next to the key; a typed one never is.

Options:
  --url URL    the service (default: $AUTOFIN_URL, else ${defaultUrl})
  --json       print JSON (the default; accepted by every command)
  -h, --help   this help

Environment:
  ADMIN_TOKEN           the service's admin token
  AUTOFIN_OPERATOR_KEY  an operator key (op_…), used instead of ADMIN_TOKEN when set
  AUTOFIN_URL           the service, when --url is not given

Exit status: 0 done, 1 the service refused or could not be reached (the error JSON is on stderr),
2 wrong usage.`;

export type Command =
  | { name: 'companies create'; companyName: string }
  | { name: 'companies list' }
  | { name: 'companies show'; companyId: string }
  | { name: 'credentials create'; companyId: string }
  | { name: 'credentials list'; companyId: string }
  | { name: 'affiliates list'; companyId: string }
  | { name: 'credentials revoke'; consumerKey: string }
  | { name: 'affiliates create'; companyId: string; userType: string; userId?: string }
  | { name: 'catalogs import'; kind: CatalogKind; file: string }
  | { name: 'operators create'; operatorName: string; role: string; email?: string; password?: PasswordSource }
  | { name: 'operators list' }
  | { name: 'operators revoke'; operatorId: string }
  | { name: 'leads list'; query: Record<string, string> }
  | { name: 'leads show'; leadId: string }
  | { name: 'leads personal-data'; leadId: string }
  | { name: 'leads export'; query: Record<string, string> }
  | { name: 'leads erase'; leadId: string }
  | { name: 'leads purge'; dryRun: boolean }
  | { name: 'audit list'; query: Record<string, string> }
  | { name: 'keys status' }
  | { name: 'keys reencrypt'; limit?: number }
  | { name: 'webhooks create'; url: string; eventTypes?: string[]; description?: string }
  | { name: 'webhooks list' }
  | { name: WebhookAction; endpointId: string }
  | { name: 'webhooks retry'; endpointId: string; deliveryId: string };

/** The lender's webhook commands that take one endpoint id. */
export const webhookActions = ['enable', 'disable', 'delete', 'rotate-secret', 'test', 'deliveries'] as const;
export type WebhookAction = `webhooks ${(typeof webhookActions)[number]}`;

export type ParsedCli =
  | { kind: 'run'; command: Command; url: string; token: string }
  | { kind: 'help' }
  | { kind: 'usage-error'; message: string };

type Values = Record<string, string | boolean | undefined>;

class UsageError extends Error {}

const options = {
  url: { type: 'string' },
  name: { type: 'string' },
  company: { type: 'string' },
  'user-id': { type: 'string' },
  'user-type': { type: 'string' },
  vehicles: { type: 'string' },
  'zip-codes': { type: 'string' },
  'endpoint-url': { type: 'string' },
  'event-types': { type: 'string' },
  description: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  role: { type: 'string' },
  email: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  status: { type: 'string' },
  decision: { type: 'string' },
  affiliate: { type: 'string' },
  'created-from': { type: 'string' },
  'created-to': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  format: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

const pages = { limit: 'limit', cursor: 'cursor' };

/** CLI option → query parameter of the lender's lead routes. */
const filterOptions: Record<string, string> = {
  company: 'companyId',
  status: 'status',
  decision: 'decision',
  affiliate: 'affiliate',
  'created-from': 'createdFrom',
  'created-to': 'createdTo',
};

function queryOf(values: Values, names: Record<string, string>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [option, parameter] of Object.entries(names)) {
    if (typeof values[option] === 'string') query[parameter] = values[option] as string;
  }
  return query;
}

/** Each command: the options it accepts besides --url, its positional arguments, and how it is built. */
const commands: Record<
  string,
  {
    options: string[];
    positionals: string[];
    build: (v: Values, p: string[]) => Command;
  }
> = {
  'companies create': {
    options: ['name'],
    positionals: [],
    build: (v) => ({ name: 'companies create', companyName: required(v, 'name') }),
  },
  'companies list': { options: [], positionals: [], build: () => ({ name: 'companies list' }) },
  'companies show': {
    options: [],
    positionals: ['COMPANY_ID'],
    build: (_v, p) => ({ name: 'companies show', companyId: p[0] }),
  },
  'credentials list': {
    options: ['company'],
    positionals: [],
    build: (v) => ({ name: 'credentials list', companyId: required(v, 'company') }),
  },
  'affiliates list': {
    options: ['company'],
    positionals: [],
    build: (v) => ({ name: 'affiliates list', companyId: required(v, 'company') }),
  },
  'credentials create': {
    options: ['company'],
    positionals: [],
    build: (v) => ({ name: 'credentials create', companyId: required(v, 'company') }),
  },
  'credentials revoke': {
    options: [],
    positionals: ['CONSUMER_KEY'],
    build: (_v, p) => ({ name: 'credentials revoke', consumerKey: p[0] }),
  },
  'affiliates create': {
    options: ['company', 'user-type', 'user-id'],
    positionals: [],
    build: (v) => {
      const command: Command = {
        name: 'affiliates create',
        companyId: required(v, 'company'),
        userType: required(v, 'user-type'),
      };
      return typeof v['user-id'] === 'string' ? { ...command, userId: v['user-id'] } : command;
    },
  },
  'catalogs import': {
    options: ['vehicles', 'zip-codes'],
    positionals: [],
    build: (v) => {
      const given = (['vehicles', 'zip-codes'] as const).filter((o) => v[o] !== undefined);
      if (given.length !== 1)
        throw new UsageError('catalogs import needs exactly one of --vehicles FILE or --zip-codes FILE');
      return given[0] === 'vehicles'
        ? { name: 'catalogs import', kind: 'vehicles', file: required(v, 'vehicles') }
        : { name: 'catalogs import', kind: 'zipCodes', file: required(v, 'zip-codes') };
    },
  },
  'operators create': {
    options: ['name', 'role', 'email', 'password-stdin'],
    positionals: [],
    build: (v: Values): Command => {
      const command: Command = {
        name: 'operators create',
        operatorName: required(v, 'name'),
        role: required(v, 'role'),
      };
      if (typeof v.email !== 'string') {
        if (v['password-stdin']) throw new UsageError('--password-stdin needs --email: operators sign in by e-mail');
        return command;
      }
      return { ...command, email: v.email, password: v['password-stdin'] ? 'stdin' : 'prompt-or-generate' };
    },
  },
  'operators list': { options: [], positionals: [], build: (): Command => ({ name: 'operators list' }) },
  'operators revoke': {
    options: [],
    positionals: ['OPERATOR_ID'],
    build: (_v: Values, p: string[]): Command => ({ name: 'operators revoke', operatorId: p[0] }),
  },
  'leads list': {
    options: [...Object.keys(filterOptions), 'limit', 'cursor'],
    positionals: [],
    build: (v: Values): Command => ({ name: 'leads list', query: queryOf(v, { ...filterOptions, ...pages }) }),
  },
  'leads show': {
    options: [],
    positionals: ['LEAD_ID'],
    build: (_v: Values, p: string[]): Command => ({ name: 'leads show', leadId: p[0] }),
  },
  'leads personal-data': {
    options: [],
    positionals: ['LEAD_ID'],
    build: (_v: Values, p: string[]): Command => ({ name: 'leads personal-data', leadId: p[0] }),
  },
  'leads export': {
    options: [...Object.keys(filterOptions), 'format'],
    positionals: [],
    build: (v: Values): Command => ({
      name: 'leads export',
      query: queryOf(v, { ...filterOptions, format: 'format' }),
    }),
  },
  'leads erase': {
    options: [],
    positionals: ['LEAD_ID'],
    build: (_v: Values, p: string[]): Command => ({ name: 'leads erase', leadId: p[0] }),
  },
  'leads purge': {
    options: ['dry-run'],
    positionals: [],
    build: (v: Values): Command => ({ name: 'leads purge', dryRun: v['dry-run'] === true }),
  },
  'audit list': {
    options: ['limit', 'cursor'],
    positionals: [],
    build: (v: Values): Command => ({ name: 'audit list', query: queryOf(v, pages) }),
  },
  'keys status': { options: [], positionals: [], build: (): Command => ({ name: 'keys status' }) },
  'keys reencrypt': {
    options: ['limit'],
    positionals: [],
    build: (v: Values): Command => {
      if (v.limit === undefined) return { name: 'keys reencrypt' };
      const limit = Number(v.limit);
      if (!/^\d+$/.test(String(v.limit)) || limit < 1 || limit > 10_000)
        throw new UsageError('--limit must be an integer from 1 to 10000');
      return { name: 'keys reencrypt', limit };
    },
  },
  'webhooks create': {
    options: ['endpoint-url', 'event-types', 'description'],
    positionals: [],
    build: (v) => ({
      name: 'webhooks create',
      url: required(v, 'endpoint-url'),
      ...(typeof v['event-types'] === 'string'
        ? {
            eventTypes: v['event-types']
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean),
          }
        : {}),
      ...(typeof v.description === 'string' ? { description: v.description } : {}),
    }),
  },
  'webhooks list': { options: [], positionals: [], build: () => ({ name: 'webhooks list' }) },
  ...Object.fromEntries(
    webhookActions.map((action) => [
      `webhooks ${action}`,
      {
        options: [],
        positionals: ['ENDPOINT_ID'],
        build: (_v: Values, p: string[]): Command => ({ name: `webhooks ${action}`, endpointId: p[0] }),
      },
    ]),
  ),
  'webhooks retry': {
    options: [],
    positionals: ['ENDPOINT_ID', 'DELIVERY_ID'],
    build: (_v, p) => ({ name: 'webhooks retry', endpointId: p[0], deliveryId: p[1] }),
  },
};

/** Edit distance between two short strings (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The message for a command that does not exist, with the nearest one when it is close enough. */
function unknownCommand(name: string): string {
  const [nearest] = Object.keys(commands)
    .map((known) => ({ known, distance: editDistance(name, known) }))
    .sort((x, y) => x.distance - y.distance);
  const close = nearest.distance <= Math.max(3, Math.floor(name.length / 3));
  return close ? `unknown command "${name}": did you mean "${nearest.known}"?` : `unknown command "${name}"`;
}

function required(values: Values, option: string): string {
  const value = values[option];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${option} is required`);
  return value;
}

function serviceUrl(values: Values, env: Record<string, string | undefined>): string {
  const raw = (values.url as string | undefined) ?? (env.AUTOFIN_URL || defaultUrl);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url must be a URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must start with http:// or https://, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function parseOrThrow(argv: readonly string[], env: Record<string, string | undefined>): ParsedCli {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length === 0) throw new UsageError('no command given');
  const name = positionals.slice(0, 2).join(' ');
  const spec = commands[name];
  if (!spec) throw new UsageError(unknownCommand(name));
  const extra = Object.keys(values).filter((o) => o !== 'url' && o !== 'json' && !spec.options.includes(o));
  if (extra.length > 0) throw new UsageError(`${name} does not take --${extra[0]}`);
  const args = positionals.slice(2);
  if (args.length !== spec.positionals.length) {
    throw new UsageError(
      `${name} takes ${spec.positionals.length ? spec.positionals.join(' ') : 'no arguments'}, got ${args.length}`,
    );
  }
  const command = spec.build(values, args);
  const url = serviceUrl(values, env);
  const token = env.AUTOFIN_OPERATOR_KEY || env.ADMIN_TOKEN;
  if (!token)
    throw new UsageError('ADMIN_TOKEN is not set: export the admin token of the service (or AUTOFIN_OPERATOR_KEY)');
  return { kind: 'run', command, url, token };
}

export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): ParsedCli {
  try {
    return parseOrThrow(argv, env);
  } catch (error) {
    if (error instanceof UsageError) return { kind: 'usage-error', message: error.message };
    throw error;
  }
}
