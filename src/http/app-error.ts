/**
 * The closed catalogue of errors the API can answer. Every error leaves the server through one
 * renderer (error-handler.ts) as the spec's ErrorResponse; each contract case has one constructor.
 */
export interface FieldError {
  field: string;
  errorDetail: string;
}

export type ProviderKind = 'sms' | 'email' | 'bureau';
export type FailureKind = 'timeout' | 'rejected' | 'error' | 'circuit_open';

const providerDigits: Record<ProviderKind, string> = { sms: '01', email: '02', bureau: '03' };
const failureDigits: Record<FailureKind, string> = {
  timeout: '001',
  rejected: '002',
  error: '003',
  circuit_open: '004',
};

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
  /** 400 / 400: the contact update (op 8) keeps the spec's own code. */
  invalidContact: (fieldErrors: FieldError[]) =>
    new AppError(400, 400, 'Bad Request', { errors: fieldErrors }),
  /** 400 / 4003 on PIN send and confirmation, with a machine-readable reason. */
  pinRejected: (reason: string, fieldErrors: FieldError[] = []) =>
    new AppError(400, 4003, 'Bad Request', fieldErrors.length ? { reason, errors: fieldErrors } : { reason }),
  unauthorized: (description: string) =>
    new AppError(401, 4010, 'Unauthorized', null, {
      'www-authenticate': `Bearer realm="autofin", error="invalid_token", error_description="${description}"`,
    }),
  /** 401 without a token at all: RFC 6750 says no error code then. */
  missingToken: () =>
    new AppError(401, 4010, 'Unauthorized', null, { 'www-authenticate': 'Bearer realm="autofin"' }),
  leadNotFound: () => new AppError(404, 4040, 'Lead not found'),
  catalogEntryNotFound: () => new AppError(404, 4041, 'Catalog entry not found'),
  zipCodeNotFound: () => new AppError(404, 4042, 'Zip code not found'),
  credentialNotFound: () => new AppError(404, 4043, 'Credential not found'),
  routeNotFound: () => new AppError(404, 4044, 'Not Found'),
  companyNotFound: () => new AppError(404, 4046, 'Company not found'),
  methodNotAllowed: (allow: string[]) =>
    new AppError(405, 4050, 'Method Not Allowed', null, { allow: allow.join(', ') }),
  leadVerified: () => new AppError(409, 4090, 'Lead already verified'),
  idempotencyConflict: () => new AppError(409, 4091, 'Idempotency-Key reused with another request'),
  payloadTooLarge: () => new AppError(413, 4130, 'Payload Too Large'),
  unsupportedMediaType: () => new AppError(415, 4150, 'Unsupported Media Type'),
  tooManyRequests: (retryAfterSeconds: number) =>
    new AppError(429, 4290, 'Too Many Requests', null, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) }),
  internal: () => new AppError(500, 5000, 'Internal Server Error'),
  unavailable: () => new AppError(503, 5030, 'Service Unavailable'),
  /** 412 / 6XXYYY: the single mapping of a provider failure to the contract's code. */
  providerFailed: (provider: ProviderKind, kind: FailureKind) =>
    new AppError(412, Number(`6${providerDigits[provider]}${failureDigits[kind]}`), 'Third-party message error', {
      provider,
      failure: kind,
    }),
};
