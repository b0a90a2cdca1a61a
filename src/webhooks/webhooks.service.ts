/**
 * Webhook endpoints and their delivery log, for a company (partner API) or for the lender (admin
 * API, `owner` null: events of every company). Secrets are stored encrypted and shown only when an
 * endpoint is created and when its secret is rotated; after a rotation the old secret keeps
 * signing, next to the new one, for 24 hours.
 */
import { errors } from '../http/index.ts';
import { type Clock, type FieldEncryption, newId } from '../shared/index.ts';
import type { EncryptedColumn } from '../db/index.ts';
import { newSecret } from './signing.ts';
import type { UrlPolicy } from './url-policy.ts';
import type { DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks.repository.ts';

export const secretContext = (endpointId: string) => `webhook-secret:${endpointId}`;

/** The endpoints' encrypted signing secrets (the current one and the one still valid after a rotation). */
export const webhookEncryptedColumns: EncryptedColumn[] = [
  { table: 'webhook_endpoints', id: 'id', column: 'secret_enc', context: secretContext },
  { table: 'webhook_endpoints', id: 'id', column: 'previous_secret_enc', context: secretContext },
];
export const rotationOverlapMs = 24 * 60 * 60 * 1000;

/** A company id, or null for the lender's own endpoints. */
export type Owner = string | null;

export interface EndpointInput {
  url: string;
  eventTypes?: string[] | null;
  description?: string | null;
  enabled?: boolean;
}

interface Deps {
  repository: WebhooksRepository;
  encryption: FieldEncryption;
  policy: Pick<UrlPolicy, 'refusal'>;
  clock: Clock;
  /** Wakes the delivery worker (a test event or a retry is due now). */
  kick?: () => void;
}

export function endpointView(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.event_types,
    description: row.description,
    enabled: row.enabled,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
  };
}

const encodeCursor = (row: DeliveryRow) =>
  Buffer.from(JSON.stringify([new Date(row.created_at).toISOString(), row.id])).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const createdAt = new Date(at);
    if (Number.isNaN(createdAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) throw new Error('bad cursor');
    return { createdAt, id };
  } catch {
    throw errors.invalidInput([{ field: 'cursor', errorDetail: 'is not a cursor of this list' }]);
  }
}

/** The owner's endpoint; another owner's, like an unknown one, is not found. */
async function endpointIn(repository: Deps['repository'], owner: Owner, id: string): Promise<EndpointRow> {
  const row = await repository.findEndpoint(id.toLowerCase(), owner);
  if (!row) throw errors.webhookEndpointNotFound();
  return row;
}

/** Create, list, read, change, delete an endpoint and rotate its secret. */
function createEndpointManagement(deps: Deps) {
  const { repository, clock } = deps;
  const endpointOf = (owner: Owner, id: string) => endpointIn(repository, owner, id);

  async function checkUrl(url: string): Promise<void> {
    const refusal = await deps.policy.refusal(url);
    if (refusal) throw errors.invalidInput([{ field: 'url', errorDetail: refusal }]);
  }

  return {
    async create(owner: Owner, input: EndpointInput) {
      await checkUrl(input.url);
      const now = clock.now();
      const id = newId();
      const secret = newSecret();
      const row = {
        id,
        company_id: owner,
        url: input.url,
        event_types: input.eventTypes ?? null,
        description: input.description ?? null,
        enabled: true,
        secret_enc: deps.encryption.encrypt(secret, secretContext(id)),
        created_at: now,
        updated_at: now,
      };
      await repository.insertEndpoint(row);
      return {
        ...endpointView({ ...row, previous_secret_enc: null, previous_secret_until: null, failing_since: null }),
        secret,
      };
    },

    async list(owner: Owner) {
      return { items: (await repository.listEndpoints(owner)).map(endpointView) };
    },

    async get(owner: Owner, id: string) {
      return endpointView(await endpointOf(owner, id));
    },

    async update(owner: Owner, id: string, input: Partial<EndpointInput>) {
      await endpointOf(owner, id);
      if (input.url !== undefined) await checkUrl(input.url);
      const row = await repository.updateEndpoint(
        id.toLowerCase(),
        owner,
        { url: input.url, event_types: input.eventTypes, description: input.description, enabled: input.enabled },
        clock.now(),
      );
      if (!row) throw errors.webhookEndpointNotFound();
      return endpointView(row);
    },

    async remove(owner: Owner, id: string): Promise<void> {
      if (!(await repository.deleteEndpoint(id.toLowerCase(), owner))) throw errors.webhookEndpointNotFound();
    },

    async rotateSecret(owner: Owner, id: string) {
      const row = await endpointOf(owner, id);
      const now = clock.now();
      const secret = newSecret();
      await repository.rotateSecret(
        row.id,
        owner,
        deps.encryption.encrypt(secret, secretContext(row.id)),
        now,
        new Date(now.getTime() + rotationOverlapMs),
      );
      return { secret };
    },
  };
}

/** An endpoint's test event, delivery log and retries. */
function createDeliveryControl(deps: Deps) {
  const { repository, clock } = deps;
  const endpointOf = (owner: Owner, id: string) => endpointIn(repository, owner, id);

  return {
    /** A `webhook.test` event to this endpoint only. */
    async sendTest(owner: Owner, id: string) {
      const row = await endpointOf(owner, id);
      const deliveryId = newId();
      await repository.insertTestDelivery({
        eventId: newId(),
        deliveryId,
        endpointId: row.id,
        companyId: owner,
        at: clock.now(),
        data: { companyId: owner, endpointId: row.id },
      });
      deps.kick?.();
      return { deliveryId };
    },

    async deliveries(owner: Owner, id: string, query: { limit?: number; cursor?: string }) {
      const row = await endpointOf(owner, id);
      const limit = query.limit ?? 50;
      const rows = await repository.listDeliveries(
        row.id,
        limit + 1,
        query.cursor ? decodeCursor(query.cursor) : undefined,
      );
      const page = rows.slice(0, limit);
      return {
        items: page.map(deliveryView),
        nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null,
      };
    },

    async retry(owner: Owner, id: string, deliveryId: string) {
      const row = await endpointOf(owner, id);
      if (!(await repository.retryDelivery(deliveryId.toLowerCase(), row.id, clock.now()))) {
        throw errors.webhookDeliveryNotFound();
      }
      deps.kick?.();
      return { deliveryId: deliveryId.toLowerCase() };
    },
  };
}

export function createWebhooksService(deps: Deps) {
  return { ...createEndpointManagement(deps), ...createDeliveryControl(deps) };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
