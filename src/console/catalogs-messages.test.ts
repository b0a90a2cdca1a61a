import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogFileError, parseCatalogFile, vehicleColumns, zipCodeColumns } from '../catalogs/catalog-file.ts';
import { catalogReasonText, catalogRefusalText } from './catalogs-messages.ts';

/** The parser's refusal of a file, as the console writes it. */
function refusal(kind: 'vehicles' | 'zipCodes', lines: string[]): string {
  try {
    parseCatalogFile(kind, Buffer.from(lines.join('\n')));
  } catch (error) {
    assert.ok(error instanceof CatalogFileError, String(error));
    return catalogRefusalText(error.line, error.reason);
  }
  assert.fail('the file was taken');
}

const header = vehicleColumns.join(',');
const zipHeader = zipCodeColumns.join(',');
const zipRow = '06700,Roma Norte,Colonia,Cuauhtémoc,Ciudad de México,09,Ciudad de México,015,0001,Urbano';
const noEnglish = /\b(expected|got|is|the|must|file|header|rows|empty|line|repeated|here|but|on|in)\b/;

describe('catalog refusals in Spanish', () => {
  test('each refusal of the parser reads in Spanish, with its line and figures', () => {
    const cases: [string, string[], string][] = [
      [
        'vehicles',
        [header, '2024,1,Nissan,2'],
        'Archivo rechazado en la línea 2: se esperaban 8 campos y la línea tiene 4. El catálogo vigente no cambió.',
      ],
      ['vehicles', [], 'Archivo rechazado en la línea 1: el archivo está vacío: debe empezar con el encabezado'],
      ['vehicles', [header], 'Archivo rechazado en el archivo: el archivo tiene el encabezado pero ningún registro.'],
      ['vehicles', ['year,make'], 'Archivo rechazado en la línea 1: el encabezado debe ser exactamente «year,make_id'],
      [
        'vehicles',
        [header, '1800,1,Nissan,2,Versa,3,Sense,manual'],
        'en la línea 2: la columna «año» (year) debe ser un número entero del 1900 al 2100 y dice «1800».',
      ],
      ['vehicles', [header, '2024,1,,2,Versa,3,Sense,manual'], 'en la línea 2: la columna «marca» (make) está vacía.'],
      [
        'vehicles',
        [header, '2024,1,Nissan,2,Versa,3,Sense,cvt'],
        'la columna «transmisión» (transmission) debe decir «automatic» (automática) o «manual» y dice «cvt».',
      ],
      [
        'vehicles',
        [header, '2024,1,Nissan,2,Versa,3,Sense,manual', '2024,1,Nissan,2,Versa,3,Sense,manual'],
        'en la línea 3: la columna «clave de versión» (version_id) repite el valor 3 (aparece antes en la línea 2).',
      ],
      [
        'vehicles',
        [header, '2024,1,Nissan,2,Versa,3,Sense,manual', '2024,1,Nisan,2,Versa,4,Sense,manual'],
        'en la línea 3: la columna «clave de marca» (make_id) 1 es «Nisan» aquí, pero «Nissan» en la línea 2.',
      ],
      [
        'zipCodes',
        [zipHeader, zipRow.replace('06700', '067')],
        'la columna «código postal» (zip_code) debe tener 5 dígitos y dice «067».',
      ],
      [
        'zipCodes',
        [zipHeader, zipRow, zipRow.replace(',015,0001,', ',016,0002,')],
        'la columna «código postal» (zip_code) 06700 es estado/municipio 09/016 aquí, pero estado/municipio 09/015',
      ],
    ];
    for (const [kind, lines, expected] of cases) {
      const text = refusal(kind as 'vehicles', lines);
      assert.ok(text.includes(expected), `${text}\n  expected to include\n${expected}`);
      // The column headers are the file's own words; nothing else is English.
      const words = text.replace(/\([a-z_]+\)|«[^»]*»/g, '');
      assert.doesNotMatch(words, noEnglish, text);
    }
  });

  test('a refusal the console does not know is not shown in English', () => {
    assert.equal(catalogReasonText('something new went wrong'), 'el archivo no tiene el formato del catálogo');
    assert.equal(
      catalogReasonText('malformed CSV: Invalid Closing Quote: got "x" at line 3'),
      'el CSV está mal formado (revisa las comillas y los separadores)',
    );
  });
});
