/**
 * One run of the `autofin` command line (docs/operations.md, "Partners: the admin API"): parses the command,
 * calls the admin API, prints the answer as JSON on stdout; a refusal prints the service's ErrorResponse on stderr
 * and exits 1; wrong usage prints the help on stderr and exits 2. Output goes through `io`.
 */
import { readFile } from 'node:fs/promises';
import type { CliIo } from './cli-io.ts';
import { parseCli, usage, type Command } from './cli-args.ts';
import { createAdminClient, type AdminClient, type AdminResult } from './admin-client.ts';
import { firstPassword, type PasswordInput } from './operator-password.ts';
import { reencryptAll } from './keys-reencrypt.ts';
import { runBackupCli } from './backup-cli.ts';

/** Without a stdin to read, a password can only be generated. */
const noPasswordInput: PasswordInput = {
  interactive: false,
  readAll: async () => '',
  askHidden: async () => undefined,
};

/**
 * Creates an operator; with an e-mail, with its first password too, checked before the call. A generated
 * password is added to the printed answer (shown once, like the key); a typed or piped one never is.
 */
async function createOperator(
  client: AdminClient,
  command: Extract<Command, { name: 'operators create' }>,
  io: CliIo,
): Promise<AdminResult> {
  const input = { name: command.operatorName, role: command.role };
  if (command.email === undefined || command.password === undefined) {
    return client.createOperator(command.email === undefined ? input : { ...input, email: command.email });
  }
  const chosen = await firstPassword(command.password, io.passwordInput ?? noPasswordInput);
  if (!chosen.ok) return { ok: false, status: 0, body: { message: chosen.message } };
  const result = await client.createOperator({ ...input, email: command.email, password: chosen.password });
  if (!result.ok || !chosen.generated) return result;
  return { ok: true, body: { ...(result.body as object), password: chosen.password } };
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A 204 has no body: say what was done, so every success prints JSON. */
const done = (result: AdminResult, body: object): AdminResult => (result.ok ? { ok: true, body } : result);

async function execute(client: AdminClient, command: Command, io: CliIo): Promise<AdminResult> {
  switch (command.name) {
    case 'companies create':
      return client.createCompany(command.companyName);
    case 'companies list':
      return client.listCompanies();
    case 'companies show':
      return client.showCompany(command.companyId);
    case 'credentials list':
      return client.listCredentials(command.companyId);
    case 'affiliates list':
      return client.listAffiliates(command.companyId);
    case 'credentials create':
      return client.createCredential(command.companyId);
    case 'credentials revoke': {
      const result = await client.revokeCredential(command.consumerKey);
      // 204 has no body: say what was done, so every success prints JSON.
      return result.ok ? { ok: true, body: { consumer_key: command.consumerKey, revoked: true } } : result;
    }
    case 'affiliates create':
      return client.createAffiliate(command.companyId, {
        user_type: command.userType,
        ...(command.userId === undefined ? {} : { user_id: command.userId }),
      });
    case 'operators create':
      return createOperator(client, command, io);
    case 'operators list':
      return client.listOperators();
    case 'operators revoke':
      return done(await client.deleteOperator(command.operatorId), { id: command.operatorId, deleted: true });
    case 'leads list':
      return client.listLeads(command.query);
    case 'leads show':
      return client.readLead(command.leadId);
    case 'leads personal-data':
      return client.personalData(command.leadId);
    case 'leads export':
      return client.exportLeads(command.query, io.stdout);
    case 'leads erase':
      return done(await client.eraseLead(command.leadId), { id: command.leadId, personalDataErased: true });
    case 'leads purge':
      return client.purge(command.dryRun);
    case 'audit list':
      return client.listAudit(command.query);
    case 'keys status':
      return client.keyStatus();
    case 'keys reencrypt':
      return reencryptAll(client, command.limit, io.progress ?? { interactive: false, write: io.stderr });
    case 'catalogs import': {
      let bytes: Buffer;
      try {
        bytes = await readFile(command.file);
      } catch (error) {
        return {
          ok: false,
          status: 0,
          body: {
            message: `cannot read ${command.file}`,
            reason: (error as NodeJS.ErrnoException).code ?? String(error),
          },
        };
      }
      return client.importCatalog(command.kind, bytes);
    }
    default:
      return executeWebhook(client, command);
  }
}

async function executeWebhook(client: AdminClient, command: Command): Promise<AdminResult> {
  const id = 'endpointId' in command ? `/${encodeURIComponent(command.endpointId)}` : '';
  switch (command.name) {
    case 'webhooks create':
      return client.webhook('POST', '', {
        url: command.url,
        eventTypes: command.eventTypes,
        description: command.description,
      });
    case 'webhooks list':
      return client.webhook('GET');
    case 'webhooks enable':
    case 'webhooks disable':
      return client.webhook('PATCH', id, { enabled: command.name === 'webhooks enable' });
    case 'webhooks delete': {
      const result = await client.webhook('DELETE', id);
      return result.ok ? { ok: true, body: { id: command.endpointId, deleted: true } } : result;
    }
    case 'webhooks rotate-secret':
      return client.webhook('POST', `${id}/secret/rotate`);
    case 'webhooks test':
      return client.webhook('POST', `${id}/test`);
    case 'webhooks deliveries':
      return client.webhook('GET', `${id}/deliveries`);
    case 'webhooks retry':
      return client.webhook('POST', `${id}/deliveries/${encodeURIComponent(command.deliveryId)}/retry`);
    default:
      throw new Error(`unhandled command ${command.name}`);
  }
}

/** Runs one invocation and answers its exit status. */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  // Backups and restores have a parser of their own (backup-cli.ts): restore runs without the service.
  if (argv[0] === 'backup' || argv[0] === 'restore') return runBackupCli(argv, env, io);
  const parsed = parseCli(argv, env);
  if (parsed.kind === 'help') {
    io.stdout(`${usage}\n`);
    return 0;
  }
  if (parsed.kind === 'usage-error') {
    io.stderr(`autofin: ${parsed.message}\n\n${usage}\n`);
    return 2;
  }
  const client = createAdminClient({ baseUrl: parsed.url, token: parsed.token, fetch: io.fetch });
  const result = await execute(client, parsed.command, io);
  if (result.ok) {
    // The export has already written itself to stdout.
    if (parsed.command.name !== 'leads export') io.stdout(json(result.body));
    return 0;
  }
  io.stderr(json(result.body));
  return 1;
}
