/**
 * HTML for the console's server-rendered pages: a tagged template that escapes every interpolated
 * value unless it is already `Html` (another template's output). Pages are plain functions of their
 * data, so the type checker sees every field a page reads.
 *
 * Escaping also neutralises Unicode's bidirectional controls (the embeddings and overrides
 * U+202A–U+202E, the isolates U+2066–U+2069, the marks U+200E, U+200F and U+061C): text a partner
 * sent could otherwise reorder what an operator reads, in it and around it (a right-to-left override
 * before "fdp.exe" shows "exe.pdf"). Each one is shown as U+FFFD, so the operator sees one was there.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const bidiControls = /\p{Bidi_Control}/gu;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]).replace(bidiControls, '\uFFFD');
}

export type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false || value === true) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup written by the page code itself (never data). */
export const trusted = (text: string): Html => new Html(text);
