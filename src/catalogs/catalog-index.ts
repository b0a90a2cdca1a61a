/**
 * The catalogs as an immutable in-memory index, built once per import: the catalog API (ops 1-4)
 * is read-heavy and its answers only change when a new catalog is imported, so every answer is
 * computed once and its bodies and ETags are rendered on first request and then reused.
 *
 * Ordering: lists are sorted by name with `compareNames`, a locale-independent order (the result
 * must not depend on the ICU data or locale of the machine, or ETags would differ between
 * instances): names are compared by their folded form (Unicode NFD, combining marks removed,
 * lower-cased, whitespace collapsed) in UTF-16 code-unit order, then by their exact text, then by
 * numeric id. So "Álamos" sorts with "Alamos", and "Ñ" sorts as "N" (not after it as in Spanish).
 */
import { createHash } from 'node:crypto';
import { XMLBuilder } from 'fast-xml-parser';
import type { VehicleRow, ZipSettlementRow } from './catalog-file.ts';

/** The spec's Catalogue: `Clave` / `Nombre` in XML. */
export interface CatalogItem {
  readonly id: string;
  readonly name: string;
}

/** The spec's ZipCodeInformation; `state.id` is the INEGI 2-digit state code. */
export interface ZipCodeInformation {
  readonly zipCode: string;
  readonly neighborhoods: readonly string[];
  readonly municipality: string;
  readonly city: string;
  readonly state: { readonly id: string; readonly name: string };
}

export interface VersionInfo {
  readonly versionId: number;
  readonly year: number;
  readonly makeId: number;
  readonly make: string;
  readonly modelId: number;
  readonly model: string;
  readonly version: string;
}

export type CatalogFormat = 'json' | 'xml';

/**
 * One rendered body, ready to send: its UTF-8 bytes (encoded once, not on every answer) and a
 * strong ETag that is a hash of exactly these bytes.
 */
export interface Representation {
  readonly contentType: string;
  readonly body: Buffer;
  readonly etag: string;
}

export interface CatalogAnswer<T> {
  readonly value: T;
  render(format: CatalogFormat): Representation;
}

export type CatalogList = CatalogAnswer<readonly CatalogItem[]>;

export interface VehicleIndex {
  readonly versionCount: number;
  years(): CatalogList;
  /** undefined: no such year (404). */
  brands(year: number): CatalogList | undefined;
  /** undefined: no such year, or that brand has no vehicle that year. */
  models(year: number, makeId: number): CatalogList | undefined;
  /** undefined: the model is not of that brand, or not sold that year. */
  versions(year: number, makeId: number, modelId: number): CatalogList | undefined;
  version(versionId: number): VersionInfo | undefined;
}

export interface ZipIndex {
  readonly zipCodeCount: number;
  zipCode(zipCode: string): CatalogAnswer<ZipCodeInformation> | undefined;
  info(zipCode: string): ZipCodeInformation | undefined;
}

export interface CatalogIndex {
  readonly vehicles: VehicleIndex;
  readonly zipCodes: ZipIndex;
}

/** The comparison form of a name: no accents, lower case, single spaces. Locale-independent. */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function compareNames(a: string, b: string): number {
  return codeUnitOrder(foldName(a), foldName(b)) || codeUnitOrder(a, b);
}

/** Sorts by name, folding each name once (not once per comparison). */
function sortedByName<T>(values: T[], nameOf: (v: T) => string, idOf: (v: T) => number = () => 0): T[] {
  const keyed = values.map((value) => ({ value, key: foldName(nameOf(value)), name: nameOf(value), id: idOf(value) }));
  keyed.sort((a, b) => codeUnitOrder(a.key, b.key) || codeUnitOrder(a.name, b.name) || a.id - b.id);
  return keyed.map((k) => k.value);
}

function sortedItems(items: CatalogItem[]): readonly CatalogItem[] {
  return Object.freeze(sortedByName(items, (i) => i.name, (i) => Number(i.id)).map((i) => Object.freeze(i)));
}

const xml = new XMLBuilder({ ignoreAttributes: false, format: false, suppressEmptyNode: false });
const xmlDeclaration = { '@_version': '1.0', '@_encoding': 'UTF-8' };

function listXml(items: readonly CatalogItem[]): string {
  const catalogue = items.map((i) => ({ Clave: i.id, Nombre: i.name }));
  return xml.build({ '?xml': xmlDeclaration, Catalogues: { Catalogue: catalogue } });
}

function zipXml(info: ZipCodeInformation): string {
  const { zipCode, neighborhoods, municipality, city, state } = info;
  const body = { zipCode, neighborhoods: { neighborhood: neighborhoods }, municipality, city, state };
  return xml.build({ '?xml': xmlDeclaration, ZipCodeInformation: body });
}

const contentTypes: Record<CatalogFormat, string> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

function represent(format: CatalogFormat, text: string): Representation {
  const body = Buffer.from(text, 'utf8');
  // A hash of the body: identical on every instance and across restarts, and different for the
  // JSON and XML bodies of the same answer, as a strong ETag must be.
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  return Object.freeze({ contentType: contentTypes[format], body, etag });
}

/** Renders each format on first use and keeps it: most answers are never asked for in XML. */
class LazyAnswer<T> implements CatalogAnswer<T> {
  #json: Representation | undefined;
  #xml: Representation | undefined;

  constructor(
    readonly value: T,
    private readonly toXml: (value: T) => string,
  ) {}

  render(format: CatalogFormat): Representation {
    if (format === 'json') return (this.#json ??= represent('json', JSON.stringify(this.value)));
    return (this.#xml ??= represent('xml', this.toXml(this.value)));
  }
}

const listAnswer = (items: CatalogItem[]): CatalogList => new LazyAnswer(sortedItems(items), listXml);

/** One copy per distinct string: rows read from the database carry a fresh copy per row. */
function createInterner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const known = seen.get(s);
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

interface MakeNode {
  name: string;
  models: Map<number, { name: string; versions: CatalogItem[] }>;
}

function groupVehicles(rows: readonly VehicleRow[]) {
  const intern = createInterner();
  const years = new Map<number, Map<number, MakeNode>>();
  const versions = new Map<number, VersionInfo>();
  for (const r of rows) {
    const make = intern(r.make);
    const model = intern(r.model);
    let makes = years.get(r.year);
    if (!makes) years.set(r.year, (makes = new Map()));
    let makeNode = makes.get(r.makeId);
    if (!makeNode) makes.set(r.makeId, (makeNode = { name: make, models: new Map() }));
    let modelNode = makeNode.models.get(r.modelId);
    if (!modelNode) makeNode.models.set(r.modelId, (modelNode = { name: model, versions: [] }));
    modelNode.versions.push({ id: String(r.versionId), name: r.version });
    const { versionId, year, makeId, modelId, version } = r;
    versions.set(versionId, Object.freeze({ versionId, year, makeId, make, modelId, model, version }));
  }
  return { years, versions };
}

interface YearAnswers {
  brands: CatalogList;
  makes: Map<number, { models: CatalogList; versions: Map<number, CatalogList> }>;
}

function yearAnswers(makes: Map<number, MakeNode>): YearAnswers {
  const brandItems: CatalogItem[] = [];
  const byMake: YearAnswers['makes'] = new Map();
  for (const [makeId, makeNode] of makes) {
    brandItems.push({ id: String(makeId), name: makeNode.name });
    const modelItems: CatalogItem[] = [];
    const versions = new Map<number, CatalogList>();
    for (const [modelId, modelNode] of makeNode.models) {
      modelItems.push({ id: String(modelId), name: modelNode.name });
      versions.set(modelId, listAnswer(modelNode.versions));
    }
    byMake.set(makeId, { models: listAnswer(modelItems), versions });
  }
  return { brands: listAnswer(brandItems), makes: byMake };
}

export function buildVehicleIndex(rows: readonly VehicleRow[]): VehicleIndex {
  const { years, versions } = groupVehicles(rows);
  const byYear = new Map<number, YearAnswers>();
  for (const [year, makes] of years) byYear.set(year, yearAnswers(makes));
  const yearList = listAnswer([...years.keys()].map((year) => ({ id: String(year), name: String(year) })));
  return Object.freeze({
    versionCount: versions.size,
    years: () => yearList,
    brands: (year: number) => byYear.get(year)?.brands,
    models: (year: number, makeId: number) => byYear.get(year)?.makes.get(makeId)?.models,
    versions: (year: number, makeId: number, modelId: number) =>
      byYear.get(year)?.makes.get(makeId)?.versions.get(modelId),
    version: (versionId: number) => versions.get(versionId),
  });
}

function groupZipCodes(rows: readonly ZipSettlementRow[]): Map<string, ZipCodeInformation> {
  const intern = createInterner();
  const groups = new Map<string, { first: ZipSettlementRow; names: Set<string>; city: string }>();
  for (const row of rows) {
    const group = groups.get(row.zipCode);
    if (!group) groups.set(row.zipCode, { first: row, names: new Set([intern(row.settlement)]), city: row.city });
    else {
      group.names.add(intern(row.settlement));
      // The importer allows one non-empty city per ZIP code; some of its settlements may have none.
      if (group.city === '') group.city = row.city;
    }
  }
  const infos = new Map<string, ZipCodeInformation>();
  for (const [zipCode, { first, names, city }] of groups) {
    const municipality = intern(first.municipality);
    infos.set(zipCode, Object.freeze({
      zipCode,
      neighborhoods: Object.freeze(sortedByName([...names], (n) => n)),
      municipality,
      // SEPOMEX leaves the city empty for most rural settlements; the municipality stands in.
      city: city === '' ? municipality : intern(city),
      state: Object.freeze({ id: intern(first.stateCode), name: intern(first.stateName) }),
    }));
  }
  return infos;
}

// Rendered ZIP answers kept at once. All 32,009 ZIP codes rendered in both formats would add about
// 34 MiB to the 23 MiB index; partners ask mostly for the same busy codes, so a bounded LRU
// (about 5 MiB when full) serves them.
export const zipAnswerCacheSize = 4_096;

export function buildZipIndex(rows: readonly ZipSettlementRow[]): ZipIndex {
  const infos = groupZipCodes(rows);
  const cache = new Map<string, CatalogAnswer<ZipCodeInformation>>();
  function zipCode(code: string): CatalogAnswer<ZipCodeInformation> | undefined {
    const cached = cache.get(code);
    if (cached) {
      cache.delete(code); // re-inserted below as the most recently used
      cache.set(code, cached);
      return cached;
    }
    const info = infos.get(code);
    if (!info) return undefined;
    const answer = new LazyAnswer(info, zipXml);
    cache.set(code, answer);
    if (cache.size > zipAnswerCacheSize) cache.delete(cache.keys().next().value as string);
    return answer;
  }
  return Object.freeze({ zipCodeCount: infos.size, zipCode, info: (code: string) => infos.get(code) });
}

export function buildCatalogIndex(
  vehicles: readonly VehicleRow[],
  zipCodes: readonly ZipSettlementRow[],
): CatalogIndex {
  return Object.freeze({ vehicles: buildVehicleIndex(vehicles), zipCodes: buildZipIndex(zipCodes) });
}
