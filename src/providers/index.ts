/** What other modules use of the providers module. */
export { runWithCallContext } from './call-context.ts';
export type { ProviderLogger } from './logger-port.ts';
export { classifyThrown, describeError, readBoundedText, type Outbound, type ProviderTracer } from './outbound.ts';
export type {
  ProviderResult,
  EmailMessage,
  SmsMessage,
  FailureKind,
  ProviderFailure,
  ProviderKind,
  EmailSender,
  SmsSender,
} from './ports.ts';

export { createProvidersModule } from './providers.module.ts';
export { maskPhone } from './sms-log.ts';
