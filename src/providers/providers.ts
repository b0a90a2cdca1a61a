/**
 * Chooses the message adapters from configuration (SMS_PROVIDER, EMAIL_PROVIDER and their settings)
 * and builds the one outbound layer every provider is called through, the bureau's included (the
 * bureau module, src/bureau, chooses its own adapter and calls it through this layer).
 */
import type { Clock } from '../shared/index.ts';
import { createLogEmailSender } from './email-log.ts';
import { createSmtpEmailSender } from './email-smtp.ts';
import type { ProviderLogger } from './logger-port.ts';
import { createOutbound, type Outbound, type OutboundOptions } from './outbound.ts';
import type { EmailMessage, EmailSender, SmsMessage, SmsSender } from './ports.ts';
import { createLogSmsSender } from './sms-log.ts';
import { createTwilioSmsSender } from './sms-twilio.ts';

/** The slice of the service configuration this module reads; settings of an unchosen provider may be absent. */
export interface ProvidersConfig {
  smsProvider: 'log' | 'twilio';
  twilio: { accountSid?: string; authToken?: string; from?: string; baseUrl: string };
  emailProvider: 'log' | 'smtp';
  smtpUrl?: string;
  emailFrom?: string;
  providerTimeoutMs: number;
}

export interface ProvidersDeps {
  logger: ProviderLogger;
  clock?: Clock;
  /** Where the log senders also hand each message (the sandbox shows PINs to developers). */
  smsSink?: (message: SmsMessage) => void;
  emailSink?: (message: EmailMessage) => void;
  circuit?: { failureThreshold?: number; openMs?: number };
  /** Told of every provider call's outcome and duration (the metrics). */
  onCall?: OutboundOptions['onCall'];
  /** A span per provider call, when tracing is on. */
  tracer?: OutboundOptions['tracer'];
}

export interface Providers {
  sms: SmsSender;
  email: EmailSender;
  outbound: Outbound;
  /** Closes the chosen adapters' connection pools. */
  close(): Promise<void>;
}

/** A chosen provider without its settings is a startup error, named by its environment variable. */
function required(value: string | undefined, variable: string, chosen: string): string {
  if (!value) throw new Error(`${chosen} needs ${variable}`);
  return value;
}

function chooseSms(config: ProvidersConfig, deps: ProvidersDeps): SmsSender {
  if (config.smsProvider === 'log') return createLogSmsSender(deps.logger, deps.smsSink);
  const chosen = 'SMS_PROVIDER=twilio';
  return createTwilioSmsSender({
    accountSid: required(config.twilio.accountSid, 'TWILIO_ACCOUNT_SID', chosen),
    authToken: required(config.twilio.authToken, 'TWILIO_AUTH_TOKEN', chosen),
    from: required(config.twilio.from, 'TWILIO_FROM', chosen),
    baseUrl: required(config.twilio.baseUrl, 'TWILIO_BASE_URL', chosen),
  });
}

async function chooseEmail(config: ProvidersConfig, deps: ProvidersDeps): Promise<EmailSender> {
  if (config.emailProvider === 'log') return createLogEmailSender(deps.logger, deps.emailSink);
  const chosen = 'EMAIL_PROVIDER=smtp';
  return createSmtpEmailSender({
    smtpUrl: required(config.smtpUrl, 'SMTP_URL', chosen),
    from: required(config.emailFrom, 'EMAIL_FROM', chosen),
    // nodemailer's own waits a little past our limit, so they only clean up what the limit gave up on.
    socketTimeoutMs: Math.max(config.providerTimeoutMs * 2, 5_000),
  });
}

/** Rejects when a chosen provider lacks its settings or refuses them: the service does not start. */
export async function createProviders(config: ProvidersConfig, deps: ProvidersDeps): Promise<Providers> {
  const sms = chooseSms(config, deps);
  const email = await chooseEmail(config, deps);
  const outbound = createOutbound({
    timeoutMs: config.providerTimeoutMs,
    clock: deps.clock,
    logger: deps.logger,
    onCall: deps.onCall,
    tracer: deps.tracer,
    ...deps.circuit,
  });
  // Names and the limit only: the settings carry credentials. The keys are not the censored `email`.
  deps.logger.info(
    { smsProvider: sms.name, emailProvider: email.name, timeoutMs: config.providerTimeoutMs },
    'providers ready',
  );
  return {
    sms,
    email,
    outbound,
    async close() {
      await Promise.allSettled([sms.close?.(), email.close?.()]);
    },
  };
}
