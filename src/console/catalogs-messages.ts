/**
 * Why a catalog file was refused, in Spanish for the console. The catalog parser (catalogs/catalog-file.ts)
 * words its refusals in English for the admin API; here each known shape of them is read back and
 * written in Spanish, its figures, values and line kept. The CSV's column headers stay as written in the
 * file (the operator looks for them there), each after its name in Spanish.
 */

const columnNames: Record<string, string> = {
  year: 'año',
  make_id: 'clave de marca',
  make: 'marca',
  model_id: 'clave de modelo',
  model: 'modelo',
  version_id: 'clave de versión',
  version: 'versión',
  transmission: 'transmisión',
  zip_code: 'código postal',
  settlement: 'asentamiento',
  settlement_type: 'tipo de asentamiento',
  municipality: 'municipio',
  city: 'ciudad',
  state_code: 'clave de estado',
  state_name: 'estado',
  municipality_code: 'clave de municipio',
  settlement_id: 'clave de asentamiento',
  zone: 'zona',
};

/** A column (or columns joined by "/") as "la columna «marca» (make)". */
function column(raw: string): string {
  const parts = raw.split('/');
  const name = parts.map((p) => columnNames[p] ?? p).join('/');
  return `${parts.length > 1 ? 'las columnas' : 'la columna'} «${name}» (${raw})`;
}

/** A value of a consistency check ("make_id 5", "\"Nissan\"", "in state/municipality 09/015"). */
function compared(value: string): string {
  const names: Record<string, string> = { ...columnNames, state: 'estado' };
  const named = /^(?:in )?([a-z_/]+) (.+)$/.exec(value);
  if (named && named[1]!.split('/').every((p) => p in names)) {
    return `${named[1]!
      .split('/')
      .map((p) => names[p])
      .join('/')} ${named[2]}`;
  }
  return value.replace(/^"(.*)"$/, '«$1»');
}

type Translation = [RegExp, (...groups: string[]) => string];

const translations: Translation[] = [
  [/^expected (\d+) fields, got (\d+)$/, (n, m) => `se esperaban ${n} campos y la línea tiene ${m}`],
  [/^([a-z_]+) is empty$/, (c) => `${column(c!)} está vacía`],
  [/^([a-z_]+) is longer than (\d+) characters$/, (c, n) => `${column(c!)} tiene más de ${n} caracteres`],
  [
    /^([a-z_]+) has a control character or is not valid UTF-8$/,
    (c) => `${column(c!)} tiene un carácter de control o no está en UTF-8`,
  ],
  [
    /^([a-z_]+) has untrimmed or repeated spaces$/,
    (c) => `${column(c!)} tiene espacios al inicio, al final o repetidos`,
  ],
  [
    /^([a-z_]+) must be an integer from (\d+) to (\d+), got "(.*)"$/s,
    (c, a, b, v) => `${column(c!)} debe ser un número entero del ${a} al ${b} y dice «${v}»`,
  ],
  [/^([a-z_]+) must be (\d+) digits, got "(.*)"$/s, (c, n, v) => `${column(c!)} debe tener ${n} dígitos y dice «${v}»`],
  [
    /^transmission must be automatic or manual, got "(.*)"$/s,
    (v) => `${column('transmission')} debe decir «automatic» (automática) o «manual» y dice «${v}»`,
  ],
  [
    /^state_code must be an INEGI state code from 01, got "(.*)"$/s,
    (v) => `${column('state_code')} debe ser una clave de estado del INEGI desde 01 y dice «${v}»`,
  ],
  [
    /^(?:the city of )?([a-z_/]+) (.+) is repeated \(first on line (\d+)\)$/s,
    (c, k, l) => `${column(c!)} repite el valor ${k} (aparece antes en la línea ${l})`,
  ],
  [
    /^(the city of )?([a-z_/]+) (.+?) is (.+) here but (.+) on line (\d+)$/s,
    (city, c, k, here, there, l) =>
      `${city ? 'la ciudad de ' : ''}${column(c!)} ${k} es ${compared(here!)} aquí, ` +
      `pero ${compared(there!)} en la línea ${l}`,
  ],
  [/^malformed CSV: /, () => 'el CSV está mal formado (revisa las comillas y los separadores)'],
  [
    /^the file is empty; expected the header (.*)$/s,
    (h) => `el archivo está vacío: debe empezar con el encabezado «${h}»`,
  ],
  [
    /^the header must be exactly "(.*)", got "(.*)"$/s,
    (h, g) => `el encabezado debe ser exactamente «${h}» y dice «${g}»`,
  ],
  [/^the file has a header but no rows$/, () => 'el archivo tiene el encabezado pero ningún registro'],
  [/^the gzip data is corrupt or too large/, () => 'el archivo comprimido (gzip) está dañado o es demasiado grande'],
  [/^the file is larger than (\d+) bytes$/, (n) => `el archivo descomprimido pasa de ${n} bytes`],
];

/** The refusal's reason in Spanish; one the console does not know is not shown in English. */
export function catalogReasonText(reason: string): string {
  for (const [shape, write] of translations) {
    const match = shape.exec(reason);
    if (match) return write(...match.slice(1));
  }
  return 'el archivo no tiene el formato del catálogo';
}

/** The whole notice of a refused file: where (its line, when known), why, and that nothing changed. */
export function catalogRefusalText(line: number, reason: string): string {
  const where = line > 0 ? `en la línea ${line}` : 'en el archivo';
  return `Archivo rechazado ${where}: ${catalogReasonText(reason)}. El catálogo vigente no cambió.`;
}

/** A file was chosen but has no bytes at all. */
export const emptyFileText = 'El archivo está vacío: no tiene encabezado ni registros. El catálogo vigente no cambió.';

/** The form was sent without choosing a file. */
export const noFileText = 'Elige un archivo de catálogo.';
