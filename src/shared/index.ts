/** What other modules use of the shared module. */
export {
  ageOn,
  compareDates,
  formatIsoDate,
  utcCalendarDate,
  parseIsoDate,
  toCalendarDate,
  isoDateInMexico,
  makeCalendarDate,
  daysInMonth,
  type CalendarDate,
} from './calendar.ts';
export { type Clock, systemClock } from './clock.ts';
export { type FieldEncryption, createFieldEncryption } from './field-encryption.ts';
export { uuidPattern, newId, randomToken } from './ids.ts';
export { keyIdOf, loadOrCreateKey } from './keys.ts';
export { loggerOptions, type DestinationStream, logDestination } from './logging.ts';
export { projectFile } from './project-files.ts';
export { rateLimitedWarn } from './rate-limited-warn.ts';
export { type Role, roleAllows, adminTokenOperator, type OperatorContext, ROLES } from './role.ts';
export { secretMatches, hashSecret } from './secret-hash.ts';
export { setTraceparentSource, currentTraceparent } from './trace-context.ts';
export { undiciClient } from './undici-client.ts';
export { startWorker } from './worker-threads.ts';
export { lazily } from './lazily.ts';
