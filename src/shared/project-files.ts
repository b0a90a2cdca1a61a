/**
 * Where the service finds the files it reads at run time: the shipped catalogs, the
 * pre-qualification thresholds, the SQL migrations, the console's stylesheet and the sandbox guide.
 * They are located from the project's folder, not from the module that reads them, because the
 * same code runs from its sources under `src/` (tests, the CLI) and bundled into `dist/main.js`
 * (`npm start`), where every module shares one URL.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The nearest folder above this module holding the project's package.json. */
function findProjectRoot(from: URL): URL {
  for (let dir = new URL('./', from); ; dir = new URL('../', dir)) {
    const manifest = new URL('package.json', dir);
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'autofin') {
      return dir;
    }
    if (dir.pathname === '/') throw new Error(`the project's package.json was not found above ${from.pathname}`);
  }
}

export const projectRoot: URL = findProjectRoot(new URL(import.meta.url));

/** A file or folder (ending in '/') of the project, by its path from the project's folder. */
export const projectFile = (path: string): URL => new URL(path, projectRoot);
