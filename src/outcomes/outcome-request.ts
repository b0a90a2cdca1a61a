/** The outcome request's schema check for callers other than the API route (the console's form). */
import { Compile } from 'typebox/compile';
import { errors, toFieldErrors, type SchemaError } from '../http/index.ts';
import type { OutcomeChange } from './outcome-rules.ts';
import { OutcomeRequest } from './outcomes.schemas.ts';

const check = Compile(OutcomeRequest);

/** The value as an outcome change, or 400 / 40015 listing every field the schema refuses. */
export function parseOutcomeRequest(value: unknown): OutcomeChange {
  if (check.Check(value)) return value as OutcomeChange;
  throw errors.invalidInput(toFieldErrors([...check.Errors(value)] as SchemaError[]));
}
