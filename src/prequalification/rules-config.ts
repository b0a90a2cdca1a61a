/**
 * The thresholds of pre-qualification live in config/prequalification.json, not in code, so credit
 * policy can change without a release of the rules. The file is checked once at start: a bad file
 * stops the service with an error naming the key, rather than pre-qualifying on a wrong threshold.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { projectFile } from '../shared/index.ts';

export const DEFAULT_CONFIG_URL = projectFile('config/prequalification.json');

export const NO_RECORD_POLICIES = ['ALLOW_WITH_MIN_DOWN_PAYMENT', 'REJECT'] as const;
export type NoRecordPolicy = (typeof NO_RECORD_POLICIES)[number];

const Share = Type.Number({ minimum: 0, maximum: 1 });
const Months = Type.Integer({ minimum: 0, maximum: 600 });
const Age = Type.Integer({ minimum: 18, maximum: 120 });
/** Annual rates are fractions (0.139 = 13.9%), like every share in the file. */
const AnnualRate = Type.Number({ exclusiveMinimum: 0, maximum: 2 });

const ConfigSchema = Type.Object(
  {
    minimumAge: Age,
    maximumAge: Age,
    maximumAgeAtEndOfTerm: Age,
    minimumScore: Type.Integer({ minimum: 300, maximum: 850 }),
    noRecordPolicy: Type.Enum([...NO_RECORD_POLICIES]),
    noRecordMinimumDownPaymentShare: Share,
    delinquencyLookbackMonths: Type.Integer({ minimum: 1, maximum: 120 }),
    maximumDaysPastDue: Type.Integer({ minimum: 0, maximum: 365 }),
    minimumDownPaymentShare: Share,
    allowedTerms: Type.Array(Type.Integer({ minimum: 1, maximum: 120 }), { minItems: 1, uniqueItems: true }),
    minimumSeniorityMonths: Type.Object(
      { Empleado: Months, Independiente: Months, Jubilado: Months },
      { additionalProperties: false },
    ),
    maximumPaymentToIncome: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
    riskTiers: Type.Array(
      Type.Object(
        { minimumScore: Type.Integer({ minimum: 300, maximum: 850 }), annualRate: AnnualRate },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    noRecordAnnualRate: AnnualRate,
    ivaRate: Type.Number({ minimum: 0, maximum: 0.5 }),
    openingCommissionShare: Type.Number({ minimum: 0, maximum: 0.2 }),
    /** Oldest vehicle financed, in years since its model year at the end of the term; null = no limit. */
    maximumVehicleAgeYears: Type.Union([Type.Integer({ minimum: 0, maximum: 50 }), Type.Null()]),
  },
  { additionalProperties: false },
);

export type PrequalificationConfig = Static<typeof ConfigSchema>;
export type RiskTier = PrequalificationConfig['riskTiers'][number];

export class PrequalificationConfigError extends Error {
  constructor(
    readonly source: string,
    readonly key: string,
    detail: string,
  ) {
    super(`invalid pre-qualification config ${source}: "${key}" ${detail}`);
    this.name = 'PrequalificationConfigError';
  }
}

interface KeyProblem {
  key: string;
  detail: string;
}

/** The first schema problem, with the JSON path of the key it concerns. */
function firstSchemaProblem(value: unknown): KeyProblem | null {
  for (const error of Value.Errors(ConfigSchema, value)) {
    const path = error.instancePath.split('/').filter(Boolean);
    const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] };
    if (error.keyword === 'required' && params.requiredProperties?.length) {
      return { key: [...path, params.requiredProperties[0]].join('.'), detail: 'is required' };
    }
    if (error.keyword === 'additionalProperties' && params.additionalProperties?.length) {
      return { key: [...path, params.additionalProperties[0]].join('.'), detail: 'is not a known key' };
    }
    if (error.keyword === 'boolean') continue; // the additionalProperties error above says it better
    return { key: path.join('.') || '(root)', detail: error.message };
  }
  return null;
}

/** Rules between keys that a schema cannot express. */
function firstConsistencyProblem(config: PrequalificationConfig): KeyProblem | null {
  if (config.maximumAge < config.minimumAge) return { key: 'maximumAge', detail: 'must be >= minimumAge' };
  if (config.maximumAgeAtEndOfTerm <= config.minimumAge) {
    return { key: 'maximumAgeAtEndOfTerm', detail: 'must be > minimumAge' };
  }
  const scores = config.riskTiers.map((tier) => tier.minimumScore);
  if (scores.some((score, i) => i > 0 && score >= scores[i - 1])) {
    return { key: 'riskTiers', detail: 'must be ordered by minimumScore, highest first, without repeats' };
  }
  if (scores[scores.length - 1] > config.minimumScore) {
    return { key: 'riskTiers', detail: 'must give a rate to every score from minimumScore up' };
  }
  if (config.noRecordMinimumDownPaymentShare < config.minimumDownPaymentShare) {
    return { key: 'noRecordMinimumDownPaymentShare', detail: 'must be >= minimumDownPaymentShare' };
  }
  return null;
}

/** Validates parsed JSON; throws PrequalificationConfigError naming the first bad key. */
export function parsePrequalificationConfig(value: unknown, source = '(inline)'): PrequalificationConfig {
  const schemaProblem = firstSchemaProblem(value);
  if (schemaProblem) throw new PrequalificationConfigError(source, schemaProblem.key, schemaProblem.detail);
  const config = value as PrequalificationConfig;
  const problem = firstConsistencyProblem(config);
  if (problem) throw new PrequalificationConfigError(source, problem.key, problem.detail);
  return config;
}

/** Reads and validates the file (synchronously: it runs once, at start). */
export function loadPrequalificationConfig(path: string | URL = DEFAULT_CONFIG_URL): PrequalificationConfig {
  const source = path instanceof URL ? path.pathname : path;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PrequalificationConfigError(source, '(file)', `cannot be read as JSON: ${(error as Error).message}`);
  }
  return parsePrequalificationConfig(json, source);
}
