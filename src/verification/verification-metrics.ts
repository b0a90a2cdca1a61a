/**
 * Counts PIN sends and confirmations by outcome around the verification service, so the service
 * itself stays free of metrics. An outcome is a closed code: `sent` / `verified`, the 4003 reason
 * (`WRONG_PIN`, `NO_PHONE_ON_FILE`…), `throttled`, `lead_not_found`, `lead_verified`,
 * `invalid_input`, or the provider failure (`sms_timeout`, `bureau_error`…).
 */
import { AppError } from '../http/index.ts';
import type { VerificationService } from './verification.service.ts';

export interface VerificationMetrics {
  pinSent(channel: string, outcome: string): void;
  pinConfirmed(outcome: string): void;
}

/** The outcome code of a failed call: never a message or a value, only the contract's codes. */
export function failureOutcome(error: unknown): string {
  if (!(error instanceof AppError)) return 'error';
  const data = error.additionalData ?? {};
  if (error.statusCode === 412) return `${String(data.provider)}_${String(data.failure)}`;
  if (error.statusCode === 429) return 'throttled';
  if (error.statusCode === 404) return 'lead_not_found';
  if (error.statusCode === 409) return 'lead_verified';
  if (error.code === 4003 && typeof data.reason === 'string') return data.reason;
  if (error.statusCode === 400) return 'invalid_input';
  return 'error';
}

export function instrumentVerification(
  service: VerificationService,
  metrics: VerificationMetrics,
): VerificationService {
  return {
    ...service,
    async sendPin(actor, leadId, channel, ...rest) {
      try {
        await service.sendPin(actor, leadId, channel, ...rest);
        metrics.pinSent(channel, 'sent');
      } catch (error) {
        metrics.pinSent(channel, failureOutcome(error));
        throw error;
      }
    },
    async confirmPin(actor, leadId, payload, ...rest) {
      try {
        await service.confirmPin(actor, leadId, payload, ...rest);
        metrics.pinConfirmed('verified');
      } catch (error) {
        metrics.pinConfirmed(failureOutcome(error));
        throw error;
      }
    },
  };
}
