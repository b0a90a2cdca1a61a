/**
 * The URL as a log line may carry it: the path (ids, ZIP codes; never personal data), and of the
 * query only what cannot be a secret or a person's data. A query value is kept when its key is one of
 * the filters and paging parameters the API declares; any other value is replaced, whatever its key
 * (`?access_token=…`, a search text), and a key that is not a plain short name is replaced too (a
 * token sent as a bare key).
 */
const keptValues = new Set([
  'status',
  'outcome',
  'decision',
  'affiliate',
  'format',
  'limit',
  'cursor',
  'createdFrom',
  'createdTo',
  'companyId',
  'channel',
  'eventType',
  'page',
]);
const plainKey = /^[A-Za-z0-9_.[\]-]{1,32}$/;
const maxValueLength = 128;
export const redacted = '[redacted]';

export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.indexOf('=');
      const key = equals === -1 ? pair : pair.slice(0, equals);
      if (!plainKey.test(key)) return redacted;
      if (equals === -1) return key;
      const value = pair.slice(equals + 1);
      return keptValues.has(key) && value.length <= maxValueLength ? pair : `${key}=${redacted}`;
    });
  return `${url.slice(0, start)}?${pairs.join('&')}`;
}
