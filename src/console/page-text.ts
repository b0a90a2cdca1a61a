/**
 * What a console page must not show: English words and the service's own names for things (field names,
 * enum values, rule names), which the console writes in Spanish. Used by the tests that walk every page
 * (test/browser/pages-text.test.ts) on the text a person sees.
 *
 * Data is not the console's text: web addresses, e-mail addresses, ids, fingerprints and hexadecimal
 * hashes are dropped before the check, and the acronyms below are Mexican usage, not English.
 */

/** Acronyms and terms Mexican operators read as they are. */
export const allowedTerms: ReadonlySet<string> = new Set([
  'PDF',
  // The contract names changes made with the admin token "Token de administración".
  'Token',
  'RFC',
  'CURP',
  'CAT',
  'MXN',
  'SMS',
  'ID',
  'URL',
  'CSV',
  'JSON',
  'API',
  'PIN',
  'IVA',
  'INEGI',
  'SEPOMEX',
  'SHA',
  'UTF',
  'PNG',
  'JPEG',
  'IP',
]);

/**
 * Common English words that are not also Spanish words ("no", "a", "real", "total", "error", "final" are
 * left out, and "he", "has" of haber), the ones a page, a label or an enum value of this service would use.
 */
export const englishWords: ReadonlySet<string> = new Set(
  (
    'the and of to is are was were be been being for with from by at this that these those it its or not you ' +
    'your we our they their she have had will would should can could must does did if then than which ' +
    'who what when where why how all any some each every more most other into about after before between only ' +
    'also just new old first last next yes none null undefined true false nan name date status type code ' +
    'amount email phone address lead leads offer rule rules decision decisions page file line field fields ' +
    'expected got empty invalid missing required pending approved rejected funded created verified ' +
    'prequalified submit save cancel delete edit search filter previous back home login logout sign password ' +
    'user users settings report reports company companies operator operators catalog catalogs document ' +
    'documents inbox admin analyst officer review reviewed conditioned withdrawn declined failed failure ' +
    'success succeeded delivered delivery deliveries retry redeliver hook hooks endpoint secret key keys token ' +
    'revoked active inactive disabled enabled unknown income payment term rate down month months year years ' +
    'day days score bureau record vehicle make model version transmission automatic zip city state ' +
    'settlement event events consent channel request response body header headers row rows table chart ' +
    'funnel sandbox'
  ).split(' '),
);

/** The service's own names: what a field, an enum value or a rule is called in the code and the API. */
export const rawKeyShapes: readonly { name: string; shape: RegExp }[] = [
  { name: 'camelCase', shape: /\b[a-z]+(?:[A-Z][a-z0-9]+)+\b/g },
  { name: 'snake_case', shape: /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g },
  { name: 'SCREAMING_SNAKE_CASE', shape: /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g },
  { name: 'kebab-case', shape: /\b[a-z]+(?:-[a-z]+)+\b/g },
  { name: 'a structure written out', shape: /\[object Object\]|\{\s*"?\w+"?\s*:/g },
];

/** Data in a page's text, not the console's words: dropped before the check. */
const data: readonly RegExp[] = [
  /\bhttps?:\/\/\S+/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\bsha256:[0-9a-f]+\b/g,
  /\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi,
  // Credentials' and conditions' ids as the service writes them: ck_…, cond_…, whk_…, in base64url.
  /\b[a-z]{2,5}_[\w-]{8,}/g,
];

export interface TextProblem {
  /** "English" or the name of a raw key's shape. */
  kind: string;
  /** The word or key found. */
  text: string;
}

/** A page's text without the data in it (addresses, ids, hashes). */
export function withoutData(text: string): string {
  return data.reduce((rest, shape) => rest.replace(shape, ' '), text);
}

/** Every English word and raw key in a page's visible text, each once, in the order found. */
export function textProblems(text: string): TextProblem[] {
  let rest = withoutData(text);
  const found = new Map<string, TextProblem>();
  const add = (problem: TextProblem) => found.set(`${problem.kind}:${problem.text}`, problem);
  for (const { name, shape } of rawKeyShapes) {
    for (const match of rest.matchAll(shape)) if (!allowedTerms.has(match[0])) add({ kind: name, text: match[0] });
    // A key is reported once, as a key, not again for the English words it is made of.
    rest = rest.replace(shape, ' ');
  }
  for (const word of rest.match(/[\p{L}]+/gu) ?? []) {
    if (allowedTerms.has(word)) continue;
    if (englishWords.has(word.toLowerCase())) add({ kind: 'English', text: word });
  }
  return [...found.values()];
}

/** The problems as lines for a failure message. */
export const describeProblems = (problems: readonly TextProblem[]): string =>
  problems.map((p) => `  ${p.kind}: ${p.text}`).join('\n');
