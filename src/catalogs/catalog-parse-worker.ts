/**
 * A worker thread that parses one catalog file and makes the forms it is stored in
 * (catalog-parsing.ts starts it): decompressing and checking every settlement of the ZIP catalog
 * takes a while, which the service's event loop does not wait on. It answers with
 * the catalog ready to store, or with the line and reason the file is refused for; any other
 * failure is thrown, and reaches the thread that started it as the worker's error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CatalogFileError, parseVehiclesFile, parseZipCodesFile, type CatalogKind } from './catalog-file.ts';
import { storedVehicles, storedZipCodes, type StoredCatalog } from './catalog-stored-form.ts';

export interface ParseRequest {
  kind: CatalogKind;
  bytes: Uint8Array;
}

export type ParseAnswer = { stored: StoredCatalog } | { refused: { line: number; reason: string } };

const { kind, bytes } = workerData as ParseRequest;
let answer: ParseAnswer;
try {
  // Only texts cross to the other thread: copying every row object there costs more than making them.
  answer = {
    stored: kind === 'vehicles' ? storedVehicles(parseVehiclesFile(bytes)) : storedZipCodes(parseZipCodesFile(bytes)),
  };
} catch (error) {
  if (!(error instanceof CatalogFileError)) throw error;
  answer = { refused: { line: error.line, reason: error.reason } };
}
parentPort!.postMessage(answer);
