import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../http/index.ts';
import type { CatalogLookup } from '../catalogs/index.ts';
import { checkAddress, checkFinancial, checkPerson, checkVehicle, type Person } from './lead-sections.ts';
import {
  afterPinConfirmed,
  afterPinSent,
  afterPrequalification,
  afterSectionSaved,
  isVerified,
  leadStatuses,
  type LeadStatus,
} from '../lead-status/index.ts';
import { rfcCheckDigit } from './rfc.ts';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
const roma = {
  zipCode: '06700',
  neighborhoods: ['Roma Norte', 'Juárez'],
  municipality: 'Cuauhtémoc',
  city: 'Ciudad de México',
  state: { id: '09', name: 'Ciudad de México' },
};
const mg5 = { versionId: 371234, year: 2024, makeId: 60, make: 'MG', modelId: 990, model: 'MG5', version: 'EXCITE' };

/** A small catalog: one ZIP code, one vehicle version. */
const catalogs: CatalogLookup = {
  findVersion: (id) => (id === mg5.versionId ? mg5 : undefined),
  findZipCode: (zip) => (zip === roma.zipCode ? roma : undefined),
  matchNeighborhood(zip, name) {
    const found =
      zip === roma.zipCode && name !== '' ? roma.neighborhoods.find((n) => fold(n) === fold(name)) : undefined;
    return found ? { matched: true, neighborhood: found } : { matched: false, neighborhood: name };
  },
};

const today = new Date('2026-01-15T18:00:00Z');
const rfcFor = (first10: string, homoclave = 'A1') =>
  `${first10}${homoclave}${rfcCheckDigit(`${first10}${homoclave}`)}`;
const ana: Person = {
  firstName: 'Ana',
  secondName: 'María',
  lastName: 'López',
  secondLastName: 'García',
  rfc: rfcFor('LOGA900215'),
  birthDate: '1990-02-15',
};

/** Runs `fn` and returns the field list of the 400 / 40015 it must throw. */
function rejectedFields(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof AppError, `expected an AppError, got ${String(error)}`);
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, 40015);
    const list = (error.additionalData?.errors ?? []) as { field: string; errorDetail: string }[];
    for (const e of list) assert.ok(e.errorDetail.length > 0, `${e.field} has an errorDetail`);
    return list.map((e) => e.field);
  }
  assert.fail('expected the check to refuse the input');
}

describe('checkAddress', () => {
  const base = {
    street: ' Av. Álvaro Obregón ',
    number: ' 120 ',
    interior: ' 4B ',
    zipCode: '06700',
    neighborhood: 'roma  norte',
  };

  test('a matched neighborhood takes the catalog spelling and the ZIP code’s municipality, city and state', () => {
    const { address, warnings } = checkAddress(base, catalogs);
    assert.deepEqual(address, {
      street: 'Av. Álvaro Obregón',
      number: '120',
      interior: '4B',
      zipCode: '06700',
      neighborhood: 'Roma Norte',
      neighborhoodMatched: true,
      municipality: 'Cuauhtémoc',
      city: 'Ciudad de México',
      state: { id: '09', name: 'Ciudad de México' },
    });
    assert.deepEqual(warnings, []);
  });

  test('an unknown neighborhood is kept as given, unmatched, with one warning on address.neighborhood', () => {
    const { address, warnings } = checkAddress({ ...base, neighborhood: ' Colonia Inventada ' }, catalogs);
    assert.equal(address.neighborhood, 'Colonia Inventada');
    assert.equal(address.neighborhoodMatched, false);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0].code, 'NEIGHBORHOOD_NOT_IN_ZIP_CODE');
    assert.equal(warnings[0].field, 'address.neighborhood');
  });

  test('an empty or blank interior is stored as null', () => {
    for (const interior of [undefined, '', '   ']) {
      assert.equal(
        checkAddress({ ...base, interior }, catalogs).address.interior,
        null,
        `interior ${JSON.stringify(interior)}`,
      );
    }
  });

  test('a ZIP code that is not in the catalog is refused on zipCode', () => {
    assert.deepEqual(
      rejectedFields(() => checkAddress({ ...base, zipCode: '00001' }, catalogs)),
      ['zipCode'],
    );
  });

  test('a street or number of spaces only is refused, with every bad field at once', () => {
    assert.deepEqual(
      rejectedFields(() => checkAddress({ ...base, street: '   ' }, catalogs)),
      ['street'],
    );
    assert.deepEqual(
      rejectedFields(() => checkAddress({ ...base, street: ' ', number: '  ', zipCode: '00001' }, catalogs)).sort(),
      ['number', 'street', 'zipCode'],
    );
  });
});

describe('checkVehicle', () => {
  test('a known version id becomes year, brand, model and version, with the price or null', () => {
    assert.deepEqual(checkVehicle({ id: 371234, price: 320000 }, catalogs), {
      id: 371234,
      price: 320000,
      year: 2024,
      brand: { id: '60', name: 'MG' },
      model: { id: '990', name: 'MG5' },
      version: 'EXCITE',
    });
    assert.equal(checkVehicle({ id: 371234 }, catalogs).price, null);
  });

  test('an id that is not a version of the catalog is refused on id', () => {
    for (const id of [1, 371235])
      assert.deepEqual(
        rejectedFields(() => checkVehicle({ id }, catalogs)),
        ['id'],
      );
  });
});

describe('checkPerson', () => {
  test('a valid person is stored trimmed, with the RFC upper-cased and no warning', () => {
    const { person, warnings } = checkPerson(
      { ...ana, firstName: ' Ana ', lastName: 'López ', rfc: ` ${ana.rfc.toLowerCase()} ` },
      today,
    );
    assert.deepEqual(person, ana);
    assert.deepEqual(warnings, []);
  });

  test('a wrong check digit is accepted with a RFC_CHECK_DIGIT_MISMATCH warning on person.rfc', () => {
    const digit = ana.rfc[12];
    const wrong = ana.rfc.slice(0, 12) + (digit === '7' ? '8' : '7');
    const { person, warnings } = checkPerson({ ...ana, rfc: wrong }, today);
    assert.equal(person.rfc, wrong);
    assert.deepEqual(
      warnings.map((w) => [w.code, w.field]),
      [['RFC_CHECK_DIGIT_MISMATCH', 'person.rfc']],
    );
  });

  test('the 18th birthday is the first day a person is accepted (Mexico City calendar)', () => {
    const adult = { ...ana, birthDate: '2008-01-15', rfc: rfcFor('LOGA080115') };
    assert.equal(checkPerson(adult, today).person.birthDate, '2008-01-15');
    const minor = { ...ana, birthDate: '2008-01-16', rfc: rfcFor('LOGA080116') };
    assert.deepEqual(
      rejectedFields(() => checkPerson(minor, today)),
      ['birthDate'],
    );
    // 02:00 UTC on the 16th is still the 15th in Mexico City: not 18 yet.
    assert.deepEqual(
      rejectedFields(() => checkPerson(minor, new Date('2026-01-16T02:00:00Z'))),
      ['birthDate'],
    );
  });

  const refused: [string, Partial<Person>, string[]][] = [
    ['a birth date that is not YYYY-MM-DD', { birthDate: '15/02/1990' }, ['birthDate']],
    ['an impossible birth date', { birthDate: '1990-02-30' }, ['birthDate']],
    ['a birth date in the future', { birthDate: '2027-01-01' }, ['birthDate']],
    ['an age over 100', { birthDate: '1920-02-15', rfc: rfcFor('LOGA200215') }, ['birthDate']],
    ['an RFC of the wrong shape', { rfc: 'LOGA9002' }, ['rfc']],
    ['an RFC of a persona moral (3 letters)', { rfc: 'LOG900215A16' }, ['rfc']],
    ['an RFC whose date is not the birth date', { rfc: rfcFor('LOGA900216') }, ['rfc']],
    ['an RFC whose date is not a real date', { rfc: rfcFor('LOGA900230') }, ['rfc']],
    ['the generic RFC for the general public', { rfc: 'XAXX010101000' }, ['rfc']],
    ['the generic RFC for foreigners', { rfc: 'xexx010101000' }, ['rfc']],
    ['blank first and last names, both reported', { firstName: '  ', lastName: '' }, ['firstName', 'lastName']],
    ['a blank name and a bad RFC, both reported', { firstName: ' ', rfc: 'NOPE' }, ['firstName', 'rfc']],
  ];
  for (const [name, change, fields] of refused) {
    test(`refuses ${name}`, () => {
      assert.deepEqual(rejectedFields(() => checkPerson({ ...ana, ...change }, today)).sort(), [...fields].sort());
    });
  }
});

describe('checkFinancial', () => {
  test('a valid section is kept as given, with its texts trimmed', () => {
    const payload = {
      employmentType: 'Empleado',
      startEmploymentDate: '2026-01-15',
      startDate: { year: 2026, month: 1 },
      jobPosition: ' Analista ',
      jobTitle: 'Analista',
      businessLine: 'Comercio',
      employmentCompany: ' ACME ',
      income: 45000,
    };
    assert.deepEqual(checkFinancial(payload, today), {
      ...payload,
      jobPosition: 'Analista',
      employmentCompany: 'ACME',
    });
    assert.deepEqual(checkFinancial({}, today), {});
  });

  const refused: [string, object, Date, string[]][] = [
    ['a start date tomorrow', { startEmploymentDate: '2026-01-16' }, today, ['startEmploymentDate']],
    [
      'a date that is already today in UTC but still tomorrow in Mexico City',
      { startEmploymentDate: '2026-01-16' },
      new Date('2026-01-16T03:00:00Z'),
      ['startEmploymentDate'],
    ],
    ['an impossible start date', { startEmploymentDate: '2025-02-29' }, today, ['startEmploymentDate']],
    ['a start month in the future', { startDate: { year: 2026, month: 2 } }, today, ['startDate']],
    ['a start year in the future', { startDate: { year: 2027, month: 1 } }, today, ['startDate']],
    ['a blank job position', { jobPosition: '   ' }, today, ['jobPosition']],
    [
      'a blank employer and a future date, both reported',
      { employmentCompany: '', startEmploymentDate: '2030-01-01' },
      today,
      ['employmentCompany', 'startEmploymentDate'],
    ],
  ];
  for (const [name, payload, at, fields] of refused) {
    test(`refuses ${name}`, () => {
      assert.deepEqual(rejectedFields(() => checkFinancial(payload, at)).sort(), [...fields].sort());
    });
  }
});

describe('lead status transitions', () => {
  const table: [
    LeadStatus,
    { verified: boolean; saved: LeadStatus; pinSent: LeadStatus | undefined; confirmed: LeadStatus | undefined },
  ][] = [
    ['CREATED', { verified: false, saved: 'IN_PROGRESS', pinSent: 'PIN_SENT', confirmed: undefined }],
    ['IN_PROGRESS', { verified: false, saved: 'IN_PROGRESS', pinSent: 'PIN_SENT', confirmed: undefined }],
    ['PIN_SENT', { verified: false, saved: 'PIN_SENT', pinSent: 'PIN_SENT', confirmed: 'VERIFIED' }],
    ['VERIFIED', { verified: true, saved: 'VERIFIED', pinSent: undefined, confirmed: undefined }],
    ['PREQUALIFIED', { verified: true, saved: 'PREQUALIFIED', pinSent: undefined, confirmed: undefined }],
    ['NOT_PREQUALIFIED', { verified: true, saved: 'NOT_PREQUALIFIED', pinSent: undefined, confirmed: undefined }],
  ];

  test('the table covers every status', () =>
    assert.deepEqual(
      table.map(([s]) => s),
      [...leadStatuses],
    ));

  for (const [status, expected] of table) {
    test(
      `${status}: verified ${expected.verified}, a saved section leaves ${expected.saved}, ` +
        `PIN send → ${expected.pinSent}, confirmation → ${expected.confirmed}`,
      () => {
        assert.equal(isVerified(status), expected.verified);
        assert.equal(afterSectionSaved(status), expected.saved);
        assert.equal(afterPinSent(status), expected.pinSent);
        assert.equal(afterPinConfirmed(status), expected.confirmed);
      },
    );
  }

  test('pre-qualification moves only verified leads, and INCOMPLETE keeps them VERIFIED', () => {
    const cases: [LeadStatus, 'PREQUALIFIED' | 'NOT_PREQUALIFIED' | 'INCOMPLETE', LeadStatus][] = [
      ['VERIFIED', 'PREQUALIFIED', 'PREQUALIFIED'],
      ['VERIFIED', 'NOT_PREQUALIFIED', 'NOT_PREQUALIFIED'],
      ['VERIFIED', 'INCOMPLETE', 'VERIFIED'],
      ['PREQUALIFIED', 'NOT_PREQUALIFIED', 'NOT_PREQUALIFIED'],
      ['NOT_PREQUALIFIED', 'PREQUALIFIED', 'PREQUALIFIED'],
      ['PREQUALIFIED', 'INCOMPLETE', 'VERIFIED'],
      ['IN_PROGRESS', 'PREQUALIFIED', 'IN_PROGRESS'],
      ['PIN_SENT', 'NOT_PREQUALIFIED', 'PIN_SENT'],
      ['CREATED', 'PREQUALIFIED', 'CREATED'],
    ];
    for (const [from, decision, to] of cases)
      assert.equal(afterPrequalification(from, decision), to, `${from} + ${decision}`);
  });
});
