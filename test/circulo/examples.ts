/**
 * Círculo de Crédito answers shaped like the examples of its public simulation clients (the v2
 * `Respuesta` of the consolidated report with FICO Score): field names and value formats as they
 * publish them, the people fictitious. Dates are relative to `now` so "recent" stays recent.
 */
const day = 24 * 60 * 60 * 1000;
const dateAgo = (now: Date, days: number) => new Date(now.getTime() - days * day).toISOString().slice(0, 10);

/** A long, clean history: a card paid on time, a car loan paid off and closed. FICO 762. */
export function excellentHistory(now: Date) {
  return {
    folioConsulta: '1149562347',
    folioConsultaOtorgante: 'AUTOFIN-0001',
    claveOtorgante: '0000091008',
    persona: {
      apellidoPaterno: 'NUNEZ',
      apellidoMaterno: 'PENA',
      primerNombre: 'JOSE',
      fechaNacimiento: '1985-04-12',
      RFC: 'NUPJ850412A16',
      nacionalidad: 'MX',
    },
    consultas: [
      {
        fechaConsulta: dateAgo(now, 90),
        claveOtorgante: '0000080008',
        nombreOtorgante: 'BANCO DEMO',
        tipoCredito: 'TC',
        importeCredito: 40000,
        tipoResponsabilidad: 'I',
        claveUnidadMonetaria: 'MX',
      },
    ],
    creditos: [
      {
        fechaActualizacion: dateAgo(now, 20),
        registroImpugnado: 0,
        claveOtorgante: '0000080008',
        nombreOtorgante: 'BANCO DEMO',
        cuentaActual: '4152********1234',
        tipoResponsabilidad: 'I',
        tipoCuenta: 'R',
        tipoCredito: 'TC',
        claveUnidadMonetaria: 'MX',
        numeroPagos: 0,
        frecuenciaPagos: 'M',
        montoPagar: '850',
        fechaAperturaCuenta: dateAgo(now, 2900),
        fechaUltimoPago: dateAgo(now, 25),
        fechaReporte: dateAgo(now, 20),
        creditoMaximo: '42000',
        saldoActual: '4250',
        limiteCredito: '80000',
        saldoVencido: '0',
        numeroPagosVencidos: 0,
        pagoActual: 'V',
        historicoPagos: 'VVVVVVVVVVVVVVVVVVVVVVVV',
        totalPagosReportados: 0,
        peorAtraso: 0,
      },
      {
        fechaActualizacion: dateAgo(now, 400),
        registroImpugnado: 0,
        claveOtorgante: '0000070007',
        nombreOtorgante: 'FINANCIERA AUTOMOTRIZ DEMO',
        cuentaActual: 'AU-99881',
        tipoResponsabilidad: 'I',
        tipoCuenta: 'I',
        tipoCredito: 'AV',
        claveUnidadMonetaria: 'MX',
        numeroPagos: 48,
        frecuenciaPagos: 'M',
        montoPagar: '5400',
        fechaAperturaCuenta: dateAgo(now, 2000),
        fechaUltimoPago: dateAgo(now, 410),
        fechaCierreCuenta: dateAgo(now, 400),
        fechaReporte: dateAgo(now, 400),
        creditoMaximo: '210000',
        saldoActual: '0',
        saldoVencido: '0',
        numeroPagosVencidos: 0,
        pagoActual: 'V',
        historicoPagos: 'VVVVVVVVVVVVVVVVVVVVVVVV',
        peorAtraso: 0,
      },
    ],
    domicilios: [
      {
        direccion: 'AV ALVARO OBREGON 120',
        coloniaPoblacion: 'ROMA NORTE',
        delegacionMunicipio: 'CUAUHTEMOC',
        ciudad: 'CIUDAD DE MEXICO',
        estado: 'CDMX',
        CP: '06700',
      },
    ],
    empleos: [],
    scores: [{ nombreScore: 'FICO', valor: 762, razones: ['D8', 'K0', 'L0', 'F8'] }],
    mensajes: [],
  };
}

/** Three missed monthly payments on a personal loan four months ago, money still past due. FICO 588. */
export function delinquentHistory(now: Date) {
  return {
    folioConsulta: '1149562999',
    folioConsultaOtorgante: 'AUTOFIN-0002',
    claveOtorgante: '0000091008',
    persona: {
      apellidoPaterno: 'NUNEZ',
      apellidoMaterno: 'PENA',
      primerNombre: 'JOSE',
      fechaNacimiento: '1985-04-12',
      RFC: 'NUPJ850412A16',
      nacionalidad: 'MX',
    },
    consultas: [
      { fechaConsulta: dateAgo(now, 30), nombreOtorgante: 'FINANCIERA DEMO', tipoCredito: 'PP' },
      { fechaConsulta: dateAgo(now, 60), nombreOtorgante: 'TIENDA DEMO', tipoCredito: 'TC' },
    ],
    creditos: [
      {
        fechaActualizacion: dateAgo(now, 15),
        claveOtorgante: '0000060006',
        nombreOtorgante: 'FINANCIERA DEMO',
        tipoResponsabilidad: 'I',
        tipoCuenta: 'I',
        tipoCredito: 'PP',
        claveUnidadMonetaria: 'MX',
        numeroPagos: 24,
        frecuenciaPagos: 'M',
        montoPagar: '3150',
        fechaAperturaCuenta: dateAgo(now, 500),
        fechaReporte: dateAgo(now, 15),
        creditoMaximo: '60000',
        saldoActual: '38900',
        saldoVencido: '9450',
        numeroPagosVencidos: 3,
        pagoActual: '03',
        historicoPagos: '0333210VVVVVVVV',
        peorAtraso: 3,
        fechaPeorAtraso: dateAgo(now, 120),
        saldoVencidoPeorAtraso: '9450',
      },
      {
        fechaActualizacion: dateAgo(now, 15),
        claveOtorgante: '0000050005',
        nombreOtorgante: 'TIENDA DEMO',
        tipoResponsabilidad: 'I',
        tipoCuenta: 'R',
        tipoCredito: 'TC',
        claveUnidadMonetaria: 'MX',
        montoPagar: '1200',
        fechaAperturaCuenta: dateAgo(now, 900),
        creditoMaximo: '15000',
        limiteCredito: '15000',
        saldoActual: '14300',
        saldoVencido: '0',
        pagoActual: 'V',
        peorAtraso: 1,
        fechaPeorAtraso: dateAgo(now, 700),
        historicoPagos: 'VVVVVV1VVVVV',
      },
    ],
    scores: [{ nombreScore: 'FICO', valor: 588, razones: ['D1', 'D3'] }],
  };
}

/** Círculo's "person not found". */
export const personNotFound = { errores: [{ codigo: '404.1', mensaje: 'No se encontró a la persona.' }] };

/** A request Círculo refuses. */
export const badRequest = { errores: [{ codigo: '400.1', mensaje: 'El campo RFC no es válido.' }] };

export const serverError = { errores: [{ codigo: '500.1', mensaje: 'Error interno.' }] };
