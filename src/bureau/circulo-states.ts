/**
 * Our ZIP catalog names states by their INEGI code ("09" is Ciudad de México); Círculo de Crédito's
 * request wants its own CatalogoEstados abbreviation. One entry per state, in INEGI order.
 */
const CIRCULO_STATE_BY_INEGI: Readonly<Record<string, string>> = {
  '01': 'AGS',
  '02': 'BC',
  '03': 'BCS',
  '04': 'CAMP',
  '05': 'COAH',
  '06': 'COL',
  '07': 'CHIS',
  '08': 'CHIH',
  '09': 'CDMX',
  '10': 'DGO',
  '11': 'GTO',
  '12': 'GRO',
  '13': 'HGO',
  '14': 'JAL',
  '15': 'MEX',
  '16': 'MICH',
  '17': 'MOR',
  '18': 'NAY',
  '19': 'NL',
  '20': 'OAX',
  '21': 'PUE',
  '22': 'QRO',
  '23': 'QROO',
  '24': 'SLP',
  '25': 'SIN',
  '26': 'SON',
  '27': 'TAB',
  '28': 'TAMP',
  '29': 'TLAX',
  '30': 'VER',
  '31': 'YUC',
  '32': 'ZAC',
};

/** The CatalogoEstados code of an INEGI state code, or null for an unknown one. */
export function circuloStateOf(inegiId: string | null): string | null {
  return inegiId === null ? null : (CIRCULO_STATE_BY_INEGI[inegiId.padStart(2, '0')] ?? null);
}
