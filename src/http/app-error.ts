/**
 * The closed catalogue of errors the API can answer. Every error leaves the server through one
 * renderer (error-handler.ts) as the spec's ErrorResponse; each contract case has one constructor.
 */
export interface FieldError {
  field: string;
  errorDetail: string;
}

import type { FailureKind, ProviderFailure, ProviderKind } from '../providers/index.ts';

export type { FailureKind, ProviderKind };

const providerDigits: Record<ProviderKind, string> = { sms: '01', email: '02', bureau: '03' };
const failureDigits: Record<FailureKind, string> = {
  timeout: '001',
  rejected: '002',
  error: '003',
  circuit_open: '004',
};

/** Which limit a 429 hit, in `additionalData.reason` (docs/api.md, "Rate limits"). */
export type RateLimitReason =
  'COMPANY_REQUEST_LIMIT' | 'PIN_SEND_LIMIT' | 'TOKEN_REQUEST_LIMIT' | 'TOKEN_FAILURE_LIMIT';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: number,
    message: string,
    readonly additionalData: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const errors = {
  /** 400 / 40015 with every failing field listed. */
  invalidInput: (fieldErrors: FieldError[] = []) =>
    new AppError(400, 40015, 'Bad Request', fieldErrors.length ? { errors: fieldErrors } : null),
  /** 400 / 400: the contact update keeps the spec's own code. */
  invalidContact: (fieldErrors: FieldError[]) => new AppError(400, 400, 'Bad Request', { errors: fieldErrors }),
  /** 400 / 4003 on PIN send and confirmation, with a machine-readable reason. */
  pinRejected: (reason: string, fieldErrors: FieldError[] = []) =>
    new AppError(400, 4003, 'Bad Request', fieldErrors.length ? { reason, errors: fieldErrors } : { reason }),
  unauthorized: (description: string) =>
    new AppError(401, 4010, 'Unauthorized', null, {
      'www-authenticate': `Bearer realm="autofin", error="invalid_token", error_description="${description}"`,
    }),
  /** 401 without a token at all: RFC 6750 says no error code then. */
  missingToken: () => new AppError(401, 4010, 'Unauthorized', null, { 'www-authenticate': 'Bearer realm="autofin"' }),
  /** 403 / 4030: an operator whose role does not allow the route (an analyst changing something). */
  forbidden: () => new AppError(403, 4030, 'Forbidden'),
  leadNotFound: () => new AppError(404, 4040, 'Lead not found'),
  catalogEntryNotFound: () => new AppError(404, 4041, 'Catalog entry not found'),
  zipCodeNotFound: () => new AppError(404, 4042, 'Zip code not found'),
  credentialNotFound: () => new AppError(404, 4043, 'Credential not found'),
  routeNotFound: () => new AppError(404, 4044, 'Not Found'),
  /** 404 / 4046; `affiliate` names the affiliate of the request that is not one of the company's. */
  companyNotFound: (affiliate?: { user_id: string }) =>
    new AppError(404, 4046, 'Company not found', affiliate ? { affiliate: { user_id: affiliate.user_id } } : null),
  operatorNotFound: () => new AppError(404, 4049, 'Operator not found'),
  /** Unknown, or another lead's, document. */
  documentNotFound: () => new AppError(404, 4045, 'Document not found'),
  /** Unknown, or another company's, webhook endpoint. */
  webhookEndpointNotFound: () => new AppError(404, 4047, 'Webhook endpoint not found'),
  webhookDeliveryNotFound: () => new AppError(404, 4048, 'Webhook delivery not found'),
  methodNotAllowed: (allow: string[]) =>
    new AppError(405, 4050, 'Method Not Allowed', null, { allow: allow.join(', ') }),
  leadVerified: () => new AppError(409, 4090, 'Lead already verified'),
  idempotencyConflict: () => new AppError(409, 4091, 'Idempotency-Key reused with another request'),
  /** 409 / 4092: the lead's outcome may not move from `from` (null: none yet) to `to`, or the lead is not verified. */
  outcomeTransition: (from: string | null, to: string) =>
    new AppError(409, 4092, 'Outcome transition not allowed', { from, to }),
  /** 409 / 4093: the lead asks for no document now, or not for that condition (docs/api.md, "Documents"). */
  documentsNotRequested: (reason: 'NOT_CONDITIONED' | 'CONDITION_ACCEPTED' | 'LIMIT_REACHED') =>
    new AppError(409, 4093, 'Documents not requested', { reason }),
  documentReviewed: () => new AppError(409, 4094, 'Document already reviewed'),
  /** 410 / 4100: the document's bytes went with the lead's personal data. */
  documentErased: () => new AppError(410, 4100, 'Document erased'),
  /** 409 / 4095: `GET /admin/backup` on PostgreSQL, whose backups are the server's own (pg_dump). */
  backupNotEmbedded: () =>
    new AppError(409, 4095, 'Backups of a PostgreSQL database are taken with pg_dump', {
      engine: 'postgres',
      use: 'pg_dump',
    }),
  /** 409 / 4097: an erasure of a credit inside its legal retention, or of a lead under legal hold. */
  legalRetention: (retainedUntil: string | null, legalHold: boolean) =>
    new AppError(409, 4097, 'Personal data under legal retention', { retainedUntil, legalHold }),
  /**
   * 409 / 4097: personal data written to a lead whose personal data the lender erased (a section, a
   * note, a document, a bureau report): the erasure stays final (docs/lender-api.md, "Erasure and retention").
   */
  personalDataErased: (erasedAt: Date) =>
    new AppError(409, 4097, 'Personal data erased', { erasedAt: erasedAt.toISOString() }),
  /** 404 / 4040: the lead has no legal hold to read or release. */
  legalHoldNotFound: () => new AppError(404, 4040, 'Legal hold not found'),
  requestTimeout: () => new AppError(408, 4080, 'Request Timeout'),
  payloadTooLarge: () => new AppError(413, 4130, 'Payload Too Large'),
  /** A path parameter over the router's limit; the URL is not echoed. */
  uriTooLong: () => new AppError(414, 4140, 'URI Too Long'),
  unsupportedMediaType: () => new AppError(415, 4150, 'Unsupported Media Type'),
  /** 415 / 4150 for a document whose bytes are refused, `reason` saying why (docs/api.md, "Documents"). */
  unsupportedContent: (reason: string) => new AppError(415, 4150, 'Unsupported Media Type', { reason }),
  tooManyRequests: (reason: RateLimitReason, retryAfterSeconds: number) =>
    new AppError(
      429,
      4290,
      'Too Many Requests',
      { reason },
      { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    ),
  headersTooLarge: () => new AppError(431, 4310, 'Request Header Fields Too Large'),
  internal: () => new AppError(500, 5000, 'Internal Server Error'),
  unavailable: () => new AppError(503, 5030, 'Service Unavailable'),
  /** 412 / 6XXYYY: the single mapping of a provider failure to the contract's code. */
  providerFailed: (provider: ProviderKind, kind: FailureKind) =>
    new AppError(412, Number(`6${providerDigits[provider]}${failureDigits[kind]}`), 'Third-party message error', {
      provider,
      failure: kind,
    }),
};

/** Maps a failed provider result to the contract's 412 / 6XXYYY error: the only place that does it. */
export function toAppError(provider: ProviderKind, failure: Pick<ProviderFailure, 'kind'>): AppError {
  return errors.providerFailed(provider, failure.kind);
}
