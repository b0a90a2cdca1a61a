/**
 * The `autofin` command line, parsed without side effects: argv and the environment in, either a
 * command to run, the help, or a usage error out. The HTTP side lives in admin-client.ts.
 */
import { parseArgs } from 'node:util';
import type { CatalogKind } from '../catalogs/catalog-file.ts';

export const defaultUrl = 'http://127.0.0.1:3000';

export const usage = `autofin: operate an autofin service through its admin API (prints JSON)

Usage:
  autofin companies create --name NAME
  autofin companies list
  autofin credentials create --company COMPANY_ID
  autofin credentials revoke CONSUMER_KEY
  autofin affiliates create --company COMPANY_ID --user-type TYPE [--user-id UUID]
  autofin catalogs import --vehicles FILE
  autofin catalogs import --zip-codes FILE
  autofin webhooks create --endpoint-url URL [--event-types TYPE,TYPE] [--description TEXT]
  autofin webhooks list
  autofin webhooks enable|disable|delete|rotate-secret|test|deliveries ENDPOINT_ID
  autofin webhooks retry ENDPOINT_ID DELIVERY_ID

Options:
  --url URL    the service (default: $AUTOFIN_URL, else ${defaultUrl})
  -h, --help   this help

Environment:
  ADMIN_TOKEN  the service's admin token (required)
  AUTOFIN_URL  the service, when --url is not given

Exit status: 0 done, 1 the service refused or could not be reached (the error JSON is on stderr),
2 wrong usage.`;

export type Command =
  | { name: 'companies create'; companyName: string }
  | { name: 'companies list' }
  | { name: 'credentials create'; companyId: string }
  | { name: 'credentials revoke'; consumerKey: string }
  | { name: 'affiliates create'; companyId: string; userType: string; userId?: string }
  | { name: 'catalogs import'; kind: CatalogKind; file: string }
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
} as const;

/** Each command: the options it accepts besides --url, its positional arguments, and how it is built. */
const commands: Record<string, { options: string[]; positionals: string[]; build: (v: Values, p: string[]) => Command }> = {
  'companies create': {
    options: ['name'],
    positionals: [],
    build: (v) => ({ name: 'companies create', companyName: required(v, 'name') }),
  },
  'companies list': { options: [], positionals: [], build: () => ({ name: 'companies list' }) },
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
      const command: Command = { name: 'affiliates create', companyId: required(v, 'company'), userType: required(v, 'user-type') };
      return typeof v['user-id'] === 'string' ? { ...command, userId: v['user-id'] } : command;
    },
  },
  'catalogs import': {
    options: ['vehicles', 'zip-codes'],
    positionals: [],
    build: (v) => {
      const given = (['vehicles', 'zip-codes'] as const).filter((o) => v[o] !== undefined);
      if (given.length !== 1) throw new UsageError('catalogs import needs exactly one of --vehicles FILE or --zip-codes FILE');
      return given[0] === 'vehicles'
        ? { name: 'catalogs import', kind: 'vehicles', file: required(v, 'vehicles') }
        : { name: 'catalogs import', kind: 'zipCodes', file: required(v, 'zip-codes') };
    },
  },
  'webhooks create': {
    options: ['endpoint-url', 'event-types', 'description'],
    positionals: [],
    build: (v) => ({
      name: 'webhooks create', url: required(v, 'endpoint-url'),
      ...(typeof v['event-types'] === 'string' ? { eventTypes: v['event-types'].split(',').map((t) => t.trim()).filter(Boolean) } : {}),
      ...(typeof v.description === 'string' ? { description: v.description } : {}),
    }),
  },
  'webhooks list': { options: [], positionals: [], build: () => ({ name: 'webhooks list' }) },
  ...Object.fromEntries(webhookActions.map((action) => [`webhooks ${action}`, {
    options: [], positionals: ['ENDPOINT_ID'],
    build: (_v: Values, p: string[]): Command => ({ name: `webhooks ${action}`, endpointId: p[0] }),
  }])),
  'webhooks retry': {
    options: [],
    positionals: ['ENDPOINT_ID', 'DELIVERY_ID'],
    build: (_v, p) => ({ name: 'webhooks retry', endpointId: p[0], deliveryId: p[1] }),
  },
};

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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must start with http:// or https://, got "${raw}"`);
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
  if (!spec) throw new UsageError(`unknown command "${name}"`);
  const extra = Object.keys(values).filter((o) => o !== 'url' && !spec.options.includes(o));
  if (extra.length > 0) throw new UsageError(`${name} does not take --${extra[0]}`);
  const args = positionals.slice(2);
  if (args.length !== spec.positionals.length) {
    throw new UsageError(`${name} takes ${spec.positionals.length ? spec.positionals.join(' ') : 'no arguments'}, got ${args.length}`);
  }
  const command = spec.build(values, args);
  const url = serviceUrl(values, env);
  const token = env.ADMIN_TOKEN;
  if (!token) throw new UsageError('ADMIN_TOKEN is not set: export the admin token of the service');
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
