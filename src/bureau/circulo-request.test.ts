import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressLine, buildCirculoRequest, fitText, foldText, rfcOf, splitGivenNames } from './circulo-request.ts';
import { circuloStateOf } from './circulo-states.ts';
import type { BureauSubject } from './report.ts';

const subject: BureauSubject = {
  rfc: 'nuñe850412a16',
  firstName: 'José Luis',
  secondName: '',
  lastName: 'Núñez',
  secondLastName: 'Peña',
  birthDate: '1985-04-12',
  address: {
    street: 'Av. Álvaro Obregón',
    number: '120',
    interior: '4B',
    zipCode: '06700',
    neighborhood: 'Roma Norte',
    municipality: 'Cuauhtémoc',
    state: 'Ciudad de México',
    city: 'Ciudad de México',
    stateId: '09',
  },
};

test('text is folded to ASCII upper case: accents dropped, Ñ as N, other signs as spaces', () => {
  assert.equal(foldText('  Peña Güemes  d’Ávila (Ñuño) '), 'PENA GUEMES D AVILA NUNO');
  assert.equal(foldText('Calle 5 #12-B, int. 3/4'), 'CALLE 5 #12-B, INT. 3/4');
  assert.equal(fitText('María de los Ángeles Fernández', 20), 'MARIA DE LOS ANGELES');
  assert.equal(fitText('X'.repeat(40), 30), 'X'.repeat(30));
});

test('the RFC is folded (Ñ as N) but keeps its &', () => {
  assert.equal(rfcOf(' ñuñe850412a16 '), 'NUNE850412A16');
  assert.equal(rfcOf('m&m850412ab1'), 'M&M850412AB1');
});

test('given names fill primerNombre and segundoNombre', () => {
  assert.deepEqual(splitGivenNames('Ana', 'María'), { primerNombre: 'ANA', segundoNombre: 'MARIA' });
  assert.deepEqual(splitGivenNames('José Luis', ''), { primerNombre: 'JOSE', segundoNombre: 'LUIS' });
  assert.deepEqual(splitGivenNames('María del Carmen', ''), { primerNombre: 'MARIA', segundoNombre: 'DEL CARMEN' });
  assert.deepEqual(splitGivenNames('Ana', ''), { primerNombre: 'ANA', segundoNombre: null });
});

test('the address line holds street, number and interior in at most 85 characters and two words', () => {
  assert.equal(addressLine('Av. Álvaro Obregón', '120', '4B'), 'AV. ALVARO OBREGON 120 INT 4B');
  assert.equal(addressLine('Hidalgo', '', null), 'HIDALGO SN');
  assert.ok(addressLine('Calzada '.repeat(20), '1', null).length <= 85);
});

test('every INEGI state code has its CatalogoEstados code', () => {
  const codes = Array.from({ length: 32 }, (_, i) => circuloStateOf(String(i + 1).padStart(2, '0')));
  assert.equal(new Set(codes).size, 32);
  assert.ok(codes.every((c) => c && /^[A-Z]{2,4}$/.test(c)));
  assert.deepEqual(
    [circuloStateOf('09'), circuloStateOf('19'), circuloStateOf('14'), circuloStateOf('15'), circuloStateOf('23')],
    ['CDMX', 'NL', 'JAL', 'MEX', 'QROO'],
  );
  assert.equal(circuloStateOf('33'), null);
  assert.equal(circuloStateOf(null), null);
});

test('the request body has the v2 field names, lengths and folded text', () => {
  const built = buildCirculoRequest(subject);
  assert.ok(built.ok);
  assert.deepEqual(built.body, {
    primerNombre: 'JOSE',
    segundoNombre: 'LUIS',
    apellidoPaterno: 'NUNEZ',
    apellidoMaterno: 'PENA',
    fechaNacimiento: '1985-04-12',
    RFC: 'NUNE850412A16',
    nacionalidad: 'MX',
    domicilio: {
      direccion: 'AV. ALVARO OBREGON 120 INT 4B',
      coloniaPoblacion: 'ROMA NORTE',
      delegacionMunicipio: 'CUAUHTEMOC',
      ciudad: 'CIUDAD DE MEXICO',
      estado: 'CDMX',
      CP: '06700',
    },
  });
  const long = buildCirculoRequest({
    ...subject,
    firstName: 'A'.repeat(70),
    lastName: 'B'.repeat(40),
    secondLastName: '',
  });
  assert.ok(long.ok);
  assert.equal(long.body.primerNombre.length, 50);
  assert.equal(long.body.apellidoPaterno.length, 30);
  assert.equal(long.body.apellidoMaterno, 'NO PROPORCIONADO');
  assert.equal('segundoNombre' in long.body, false);
});

test('an address without a catalog state or a 5-digit ZIP cannot be asked about', () => {
  assert.deepEqual(buildCirculoRequest({ ...subject, address: { ...subject.address, stateId: null } }), {
    ok: false,
    reason: 'the address has no state of the ZIP catalog',
  });
  assert.equal(buildCirculoRequest({ ...subject, address: { ...subject.address, zipCode: '6700' } }).ok, false);
});
