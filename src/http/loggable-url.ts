/**
 * The URL as a log line may carry it: the path (ids, ZIP codes; never personal data), and of the
 * query only what cannot be a secret or a person's data. A query value is kept when its key is one of
 * the filters and paging parameters the API and the console declare and the value has that filter's own
 * format (a status's, a date's, a cursor's); a declared key with any other value keeps its key only
 * (`cursor=[redacted]`), and anything else, key and value, is replaced: a token sent as a bare key
 * (`?<token>`), as a key with a value (`?<token>=1`), or as an undeclared parameter's value.
 */
import { leadStatuses } from '../lead-status/index.ts';
import { uuidPattern } from '../shared/index.ts';

const uuid = new RegExp(uuidPattern);
/**
 * The values of the status filters: the lead statuses, the pre-qualification decisions and the lender's
 * outcomes (src/outcomes/outcome-status.ts; loggable-url.test.ts checks that every one is here).
 */
const statusWords = new Set<string>([
  ...leadStatuses,
  'INCOMPLETE',
  ...['IN_REVIEW', 'CONDITIONED', 'APPROVED', 'DECLINED', 'FUNDED', 'WITHDRAWN'],
]);
const statusWord = (value: string) => statusWords.has(value);
const isoDate = /^\d{4}-\d{2}-\d{2}$/;
const isoDateTime = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A cursor of a list: base64url of `<ISO instant>|<uuid>` (leads), `a<position>` (audit) or `["<ISO>","<uuid>"]`. */
function isCursor(value: string): boolean {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64url').toString('utf8');
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\|[0-9a-fA-F-]{36}$/.test(decoded) ||
    /^a\d{1,20}$/.test(decoded) ||
    /^\["\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z","[0-9a-f-]{36}"\]$/.test(decoded)
  );
}

/** Each declared filter and paging parameter, with the format its logged value must have. */
const filters: Record<string, (value: string) => boolean> = {
  status: statusWord,
  outcome: statusWord,
  decision: statusWord,
  affiliate: (v) => uuid.test(v),
  companyId: (v) => uuid.test(v),
  format: (v) => v === 'csv' || v === 'ndjson',
  limit: (v) => /^\d{1,4}$/.test(v),
  page: (v) => /^\d{1,6}$/.test(v),
  cursor: isCursor,
  createdFrom: (v) => isoDateTime.test(v),
  createdTo: (v) => isoDateTime.test(v),
  from: (v) => isoDate.test(v),
  to: (v) => isoDate.test(v),
  channel: (v) => v === 'SMS' || v === 'EMAIL',
  eventType: (v) => /^[a-z][a-z_.]{0,39}$/.test(v),
};
export const redacted = '[redacted]';

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function loggablePair(pair: string): string {
  const equals = pair.indexOf('=');
  const key = equals === -1 ? pair : pair.slice(0, equals);
  const matches = Object.hasOwn(filters, key) ? filters[key] : undefined;
  if (!matches) return redacted;
  if (equals === -1) return key;
  const value = decoded(pair.slice(equals + 1));
  return value !== undefined && matches(value) ? pair : `${key}=${redacted}`;
}

export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .filter(Boolean)
    .map(loggablePair);
  return `${url.slice(0, start)}?${pairs.join('&')}`;
}
