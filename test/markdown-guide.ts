/**
 * Reads a Markdown guide the way its tests need: a section by its `##` heading, the first table of a
 * section as rows keyed by column, the curl lines of its `sh` blocks, and one curl line as a request
 * (method, URL, headers, JSON body), with the shell variables it uses filled in.
 */

/** The text under `## heading`, up to the next `## ` heading. */
export function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const rest = markdown.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
const unquote = (cell: string) => cell.replace(/^`([^`]*)`$/, '$1');

/** The first table of `text`: one object per row, keyed by the header's cells; `code` cells unquoted. */
export function table(text: string): Record<string, string>[] {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim().startsWith('|'));
  if (first < 0) throw new Error('no table');
  const header = cells(lines[first]);
  const rows: Record<string, string>[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.trim().startsWith('|')) break;
    const values = cells(line);
    if (values.length !== header.length)
      throw new Error(`row with ${values.length} cells, header has ${header.length}: ${line}`);
    rows.push(Object.fromEntries(header.map((name, i) => [name, unquote(values[i])])));
  }
  return rows;
}

/** Every line inside the ```sh blocks of `text` that runs curl: `curl …` or `NAME=$(curl … | filter)`. */
export function shellLines(text: string): string[] {
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((b) => b.split('\n')).filter((l) => l.startsWith('curl ') || /^\w+=\$\(curl /.test(l));
}

/** A line `NAME=$(curl … | filter)`: the variable it sets, its curl command and the filter of the answer. */
export function assignment(line: string): { name: string; curl: string; filter: string } | undefined {
  const match = /^(\w+)=\$\((curl .*?) \| (.+)\)$/.exec(line);
  return match ? { name: match[1], curl: match[2], filter: match[3] } : undefined;
}

function expand(word: string, vars: Record<string, string>): string {
  return word.replace(/\$(?:\{(\w+)\}|(\w+))/g, (_, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare)!;
    if (!(name in vars)) throw new Error(`unset shell variable $${name}`);
    return vars[name];
  });
}

/** Splits a shell command into words: '…' literally, "…" and bare words with $VARS expanded. */
export function shellWords(line: string, vars: Record<string, string>): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      // Backslash escapes \" \\ and \$ (a literal dollar); unescaped $NAME is expanded.
      let text = '';
      let raw = '';
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === '\\' && line[i + 1] !== undefined && '"\\$'.includes(line[i + 1])) {
          text += expand(raw, vars) + line[++i];
          raw = '';
        } else raw += line[i];
      }
      if (i >= line.length) throw new Error(`unclosed " in: ${line}`);
      word = (word ?? '') + text + expand(raw, vars);
    } else {
      let raw = '';
      for (; i < line.length && !` \t'"`.includes(line[i]); i++) raw += line[i];
      i--;
      word = (word ?? '') + expand(raw, vars);
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

export interface CurlCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** `-F name=value` and `-F name=@file` parts, in order (a multipart upload). */
  form?: ({ name: string; value: string } | { name: string; file: string })[];
}

/** One `curl` command (-s, -X, -H, -d, -F and a URL) as a request. */
export function parseCurl(line: string, vars: Record<string, string>): CurlCall {
  const words = shellWords(line, vars);
  if (words[0] !== 'curl') throw new Error(`not a curl command: ${line}`);
  const call: CurlCall = { method: '', url: '', headers: {} };
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === '-s') continue;
    if (w === '-X') call.method = words[++i];
    else if (w === '-H') {
      const header = words[++i];
      const colon = header.indexOf(':');
      call.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (w === '-d') call.body = JSON.parse(words[++i]);
    else if (w === '-F') {
      const part = words[++i];
      const [name, value] = [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)];
      (call.form ??= []).push(value.startsWith('@') ? { name, file: value.slice(1) } : { name, value });
    } else if (w.startsWith('-')) throw new Error(`curl option not understood: ${w}`);
    else call.url = w;
  }
  call.method ||= call.body === undefined && call.form === undefined ? 'GET' : 'POST';
  return call;
}
