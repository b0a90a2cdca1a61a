/**
 * The catalogs as an immutable in-memory index, built once per import: the partner's catalog reads
 * are read-heavy and its answers only change when a new catalog is imported. The index is the
 * catalog packed (catalog-packed.ts: the snapshot's lines in key order, deflated in blocks, with their
 * keys); building it parses no line. An answer's value (lists and ZIP code information, also what lead
 * checks look up) is made from its lines on first use; bodies and ETags are rendered on request and
 * kept in a render cache under a byte budget (render-cache.ts), so memory does not grow with the
 * number of answers ever asked for.
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
import { RenderCache, RenderSlot, type Representation } from './render-cache.ts';
import { findLine, packSnapshot, unpackCatalog, type PackedCatalog } from './catalog-packed.ts';
import {
  rowOf,
  vehicleSnapshot,
  vehicleTable,
  zipCodeSnapshot,
  zipGroupOfEntry,
  type ZipCodeGroup,
  type ZipSnapshotEntry,
} from './catalog-stored-form.ts';

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
  return Object.freeze(
    sortedByName(
      items,
      (i) => i.name,
      (i) => Number(i.id),
    ).map((i) => Object.freeze(i)),
  );
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
  const bytes = Buffer.from(text, 'utf8');
  // A hash of the body: identical on every instance and across restarts, and different for the
  // JSON and XML bodies of the same answer, as a strong ETag must be.
  const etag = `"${createHash('sha256').update(bytes).digest('base64url')}"`;
  return Object.freeze({ contentType: contentTypes[format], body: text, byteLength: bytes.length, etag });
}

/**
 * An answer's value, with a slot per format in the render cache: a body is rendered on its first
 * request and again only after the cache dropped it. Most answers are never asked for in XML.
 * The value itself is made from its source on first use (sorting its names), so building the
 * index at a start or an import only groups the rows; most answers are never asked for.
 */
class CachedAnswer<T, S> implements CatalogAnswer<T> {
  // Made on the first request of each format: most answers are never asked for.
  #json: RenderSlot | undefined;
  #xml: RenderSlot | undefined;
  #value: T | undefined;
  #source: S | undefined;

  constructor(
    source: S,
    private readonly make: (source: S) => T,
    private readonly toXml: (value: T) => string,
    private readonly cache: RenderCache,
  ) {
    this.#source = source;
  }

  get value(): T {
    if (this.#source !== undefined) {
      this.#value = this.make(this.#source);
      this.#source = undefined; // the value replaces it
    }
    return this.#value as T;
  }

  render(format: CatalogFormat): Representation {
    if (format === 'json') {
      return this.cache.get((this.#json ??= new RenderSlot()), () => represent('json', JSON.stringify(this.value)));
    }
    return this.cache.get((this.#xml ??= new RenderSlot()), () => represent('xml', this.toXml(this.value)));
  }
}

/** One copy per distinct string: each line parsed carries a fresh copy of its names. */
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

/** One model year's vehicles as brands, models and versions. */
function groupMakes(rows: readonly VehicleRow[]): Map<number, MakeNode> {
  const intern = createInterner();
  const makes = new Map<number, MakeNode>();
  for (const r of rows) {
    let makeNode = makes.get(r.makeId);
    if (!makeNode) makes.set(r.makeId, (makeNode = { name: intern(r.make), models: new Map() }));
    let modelNode = makeNode.models.get(r.modelId);
    if (!modelNode) makeNode.models.set(r.modelId, (modelNode = { name: intern(r.model), versions: [] }));
    modelNode.versions.push({ id: String(r.versionId), name: r.version });
  }
  return makes;
}

interface YearAnswers {
  brands: CatalogList;
  makes: Map<number, { models: CatalogList; versions: Map<number, CatalogList> }>;
}

function yearAnswers(makes: Map<number, MakeNode>, listAnswer: (items: CatalogItem[]) => CatalogList): YearAnswers {
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

/** The render cache an index uses when none is given: one of its own, of the default budget. */
const ownCache = (): RenderCache => new RenderCache();

/**
 * The vehicle index of a packed catalog (catalog-packed.ts): each version's line is found by binary search on
 * the version ids, and each line's model year is known without reading the line. A model year's brands,
 * models and versions are grouped on the first request of that year, and a version's details are read from
 * its line when asked for.
 */
export function vehicleIndexOfPacked(packed: PackedCatalog, cache: RenderCache = ownCache()): VehicleIndex {
  const listAnswer = (items: CatalogItem[]): CatalogList => new CachedAnswer(items, sortedItems, listXml, cache);
  const { keys: versionIds } = packed;
  const yearAt = packed.years ?? new Int32Array(packed.lineCount);
  const rowAt = (line: number): VehicleRow => rowOf(vehicleTable, JSON.parse(packed.line(line)) as unknown[]);
  // The years there are, and a model year's answers, made on the first request that needs them.
  let knownYears: Set<number> | undefined;
  let yearList: CatalogList | undefined;
  const yearsKnown = () => (knownYears ??= new Set(yearAt));
  const byYear = new Map<number, YearAnswers>();
  const answersOf = (year: number): YearAnswers | undefined => {
    const answers = byYear.get(year);
    if (answers !== undefined) return answers;
    if (!yearsKnown().has(year)) return undefined;
    const rows: VehicleRow[] = [];
    for (let i = 0; i < yearAt.length; i++) if (yearAt[i] === year) rows.push(rowAt(i));
    const made = yearAnswers(groupMakes(rows), listAnswer);
    byYear.set(year, made);
    return made;
  };
  const yearItems = () => [...yearsKnown()].map((year) => ({ id: String(year), name: String(year) }));
  return Object.freeze({
    versionCount: packed.lineCount,
    years: () => (yearList ??= listAnswer(yearItems())),
    brands: (year: number) => answersOf(year)?.brands,
    models: (year: number, makeId: number) => answersOf(year)?.makes.get(makeId)?.models,
    versions: (year: number, makeId: number, modelId: number) =>
      answersOf(year)?.makes.get(makeId)?.versions.get(modelId),
    version(versionId: number): VersionInfo | undefined {
      const line = findLine(versionIds, versionId);
      if (line === -1) return undefined;
      const { year, makeId, make, modelId, model, version } = rowAt(line);
      return Object.freeze({ versionId, year, makeId, make, modelId, model, version });
    },
  });
}

/** The vehicle index of a snapshot's text (catalog-stored-form.ts), packed first as an import packs it. */
export const vehicleIndexOfSnapshot = (snapshot: string, cache: RenderCache = ownCache()): VehicleIndex =>
  vehicleIndexOfPacked(unpackCatalog(packSnapshot(snapshot, 'vehicles')), cache);

export function buildVehicleIndex(rows: readonly VehicleRow[], cache: RenderCache = ownCache()): VehicleIndex {
  return vehicleIndexOfSnapshot(vehicleSnapshot(rows), cache);
}

/**
 * A ZIP code's answer before its first use: the settlements as given, the names it shares with
 * other ZIP codes (municipality, city, state) one copy each.
 */
interface ZipSource {
  zipCode: string;
  settlements: readonly string[];
  municipality: string;
  city: string;
  state: ZipCodeInformation['state'];
}

function zipSource(group: ZipCodeGroup, intern: (s: string) => string): ZipSource {
  const municipality = intern(group.municipality);
  const stateCode = intern(group.stateCode);
  const stateName = intern(group.stateName);
  return {
    zipCode: group.zipCode,
    settlements: group.settlements,
    municipality,
    // SEPOMEX leaves the city empty for most rural settlements; the municipality stands in.
    city: group.city === '' ? municipality : intern(group.city),
    state: Object.freeze({ id: stateCode, name: stateName }),
  };
}

/** The answer's value: the distinct settlement names sorted (compareNames), everything frozen. */
function zipInformation({ zipCode, settlements, municipality, city, state }: ZipSource): ZipCodeInformation {
  const neighborhoods = Object.freeze(sortedByName([...new Set(settlements)], (n) => n));
  return Object.freeze({ zipCode, neighborhoods, municipality, city, state });
}

const fiveDigits = /^\d{5}$/;

/**
 * The ZIP index of a packed catalog (catalog-packed.ts): a ZIP code's line is found by binary search on the
 * codes, and its answer is made on the first request of that ZIP code, from its line, and kept (with its
 * slots in the render cache).
 */
export function zipIndexOfPacked(packed: PackedCatalog, cache: RenderCache = ownCache()): ZipIndex {
  const intern = createInterner();
  const answers = new Map<string, CatalogAnswer<ZipCodeInformation>>();
  const sourceAt = (line: number): ZipSource =>
    zipSource(zipGroupOfEntry(JSON.parse(packed.line(line)) as ZipSnapshotEntry), intern);
  const answerOf = (code: string): CatalogAnswer<ZipCodeInformation> | undefined => {
    const answer = answers.get(code);
    if (answer !== undefined) return answer;
    // Every ZIP code of the catalog has five digits (catalog-file.ts); the keys are them as numbers.
    const line = fiveDigits.test(code) ? findLine(packed.keys, Number(code)) : -1;
    if (line === -1) return undefined;
    const made = new CachedAnswer(line, (at: number) => zipInformation(sourceAt(at)), zipXml, cache);
    answers.set(code, made);
    return made;
  };
  return Object.freeze({
    zipCodeCount: packed.lineCount,
    zipCode: answerOf,
    info: (code: string) => answerOf(code)?.value,
  });
}

/** The ZIP index of a snapshot's text (catalog-stored-form.ts), packed first as an import packs it. */
export const zipIndexOfSnapshot = (snapshot: string, cache: RenderCache = ownCache()): ZipIndex =>
  zipIndexOfPacked(unpackCatalog(packSnapshot(snapshot, 'zipCodes')), cache);

export function buildZipIndex(rows: readonly ZipSettlementRow[], cache: RenderCache = ownCache()): ZipIndex {
  return zipIndexOfSnapshot(zipCodeSnapshot(rows), cache);
}

export function buildCatalogIndex(
  vehicles: readonly VehicleRow[],
  zipCodes: readonly ZipSettlementRow[],
  cache: RenderCache = ownCache(),
): CatalogIndex {
  return Object.freeze({ vehicles: buildVehicleIndex(vehicles, cache), zipCodes: buildZipIndex(zipCodes, cache) });
}
