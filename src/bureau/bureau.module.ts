/**
 * The bureau module as the composition root uses it: the bureau BUREAU_PROVIDER chooses with its
 * report store, the columns that store encrypts, and the closing of the provider's connections.
 */
import type { Queryable } from '../db/index.ts';
import type { Outbound, ProviderLogger, ProviderResult } from '../providers/index.ts';
import type { Clock } from '../shared/index.ts';
import type { LeadSealing } from '../lead-keys/index.ts';
import type { CirculoSettings } from '../config/index.ts';
import { createCirculoBureau } from './circulo-bureau.ts';
import { createHttpBureau } from './http-bureau.ts';
import type { BureauAnswer, BureauProvider, BureauReport, BureauSubject } from './report.ts';
import { createReportStore, reportEncryptedColumns } from './report-store.ts';
import { createSandboxBureau } from './sandbox-bureau.ts';

/** The slice of the service configuration this module reads. */
export interface BureauConfig {
  bureauProvider: 'sandbox' | 'http' | 'circulo';
  bureauUrl?: string;
  circulo?: CirculoSettings;
}

export interface BureauDeps {
  db: Queryable;
  /** The leads' own keys, which seal their reports (src/lead-keys). */
  sealing: LeadSealing;
  outbound: Outbound;
  clock: Clock;
  logger: ProviderLogger;
}

export interface Bureau {
  readonly name: string;
  /** One query about the subject (the caller builds it), within the provider time limit, behind the circuit. */
  query(subject: BureauSubject): Promise<ProviderResult<BureauAnswer>>;
  /** Stores the answer encrypted with the lead, replacing an earlier one. */
  save(leadId: string, answer: BureauAnswer, receivedAt: Date, tx?: Queryable): Promise<void>;
  reportOf(leadId: string, tx?: Queryable): Promise<BureauReport | undefined>;
  hasReport(leadId: string, tx?: Queryable): Promise<boolean>;
  /** The bureau's own answer, decrypted: null when it had none (sandbox), undefined before any report. */
  rawAnswerOf(leadId: string, tx?: Queryable): Promise<string | null | undefined>;
  /** Erases the lead's report and raw answer (erasure of the lead's personal data). */
  erase(leadId: string, tx?: Queryable): Promise<void>;
  close(): Promise<void>;
}

/** The adapter BUREAU_PROVIDER names; a chosen provider without its settings fails at start. */
export function chooseBureauProvider(config: BureauConfig, deps: Pick<BureauDeps, 'clock'>): BureauProvider {
  if (config.bureauProvider === 'sandbox') return createSandboxBureau(deps.clock);
  if (config.bureauProvider === 'circulo') {
    if (!config.circulo) throw new Error('BUREAU_PROVIDER=circulo needs the CIRCULO_ settings');
    return createCirculoBureau(config.circulo, deps.clock);
  }
  if (!config.bureauUrl) throw new Error('BUREAU_PROVIDER=http needs BUREAU_URL');
  return createHttpBureau({ baseUrl: config.bureauUrl });
}

export function createBureau(
  config: BureauConfig,
  deps: BureauDeps,
  provider = chooseBureauProvider(config, deps),
): Bureau {
  const store = createReportStore(deps.db, deps.sealing);
  deps.logger.info({ bureauProvider: provider.name }, 'bureau ready');
  return {
    name: provider.name,
    async query(subject) {
      return deps.outbound.call('bureau', (signal) => provider.query(subject, signal));
    },
    save: store.save,
    reportOf: store.reportOf,
    hasReport: store.hasReport,
    rawAnswerOf: store.rawAnswerOf,
    erase: store.erase,
    async close() {
      await provider.close?.();
    },
  };
}

export function createBureauModule(deps: BureauDeps & { config: BureauConfig }) {
  const { config, ...rest } = deps;
  const bureau = createBureau(config, rest);
  return { bureau, encryptedColumns: reportEncryptedColumns, close: () => bureau.close() };
}

export type BureauModule = ReturnType<typeof createBureauModule>;
