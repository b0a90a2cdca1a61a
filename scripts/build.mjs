#!/usr/bin/env node
// Bundles the service (src/main.ts, what it imports and most of the packages it uses) into dist/service.js
// with esbuild, and each module it runs in a worker thread into a file of its own. `npm start` runs
// dist/main.js, which turns on Node's compile cache and imports the bundle: a start then reads and links a
// few modules instead of resolving, reading and linking some seven hundred, and compiles little of it again
// (docs/performance.md, "How starts are kept short"). The packages the service needs only for some
// configurations or some work (undici, nodemailer, ioredis, pg-copy-streams, tracing's SDK) are chunks of
// their own under dist/chunks/, which the code imports with import() where it first needs them: a start
// that does not use them neither reads nor evaluates them. The build does not check types;
// `npm run typecheck` does, and CI runs it.
// Most packages that read files of their own folder at run time stay outside the bundle and are
// imported from node_modules as usual; the Swagger packages are bundled, their folder given to them
// (`ownFolderPackages`). The service finds its own files (migrations, catalogs, stylesheet) from the
// project's folder (src/shared/project-files.ts), so nothing is copied.
// `--if-stale` builds only when a source is newer than the last build: `npm start` runs it so, and
// the tests that start whole processes, so neither runs an older build than the sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';

const root = new URL('../', import.meta.url).pathname;
const dist = join(root, 'dist');
const stamp = join(dist, '.built');

/**
 * Imported from node_modules, not bundled: each reads files beside its own modules (PGlite its
 * WebAssembly and data files, pino the worker files of its transports), which a bundle in dist/ would
 * not find. `pg` stays out so that OpenTelemetry's `pg` instrumentation, which patches the module as it
 * is required, finds it (src/tracing).
 */
const external = ['@electric-sql/pglite', 'pino', 'pg'];

/**
 * Bundled although they read files of their own folder (Swagger UI its static pages and logo,
 * @fastify/swagger its package.json): in their modules `__dirname` is made their folder in node_modules
 * at run time, found as `require.resolve` finds the package. Imported from node_modules instead, they
 * load a second copy of @fastify/static and its packages, some 20 ms of every start.
 */
const ownFolderPackages = ['@fastify/swagger-ui', '@fastify/swagger'];

/**
 * esbuild plugins of the service's bundle:
 * - `__dirname` of `ownFolderPackages`, as above.
 * - `yaml`, which both Swagger packages require as they are registered and use only to answer the
 *   document in YAML (`/docs/yaml`): their `require('yaml')` gets an object that loads it on first use,
 *   so no start evaluates it (about 12 ms).
 */
const packageFolders = {
  name: 'package-folders',
  setup(b) {
    const pattern = new RegExp(`node_modules/(${ownFolderPackages.join('|')})/(.*)\\.js$`);
    b.onLoad({ filter: pattern }, async (args) => {
      const [, name, file] = pattern.exec(args.path);
      const folder = dirname(file) === '.' ? '' : dirname(file);
      const contents = readFileSync(args.path, 'utf8').replaceAll(
        '__dirname',
        `__bundlePackageFolder(${JSON.stringify(name)}, ${JSON.stringify(folder)})`,
      );
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};
const yamlOnFirstUse = {
  name: 'yaml-on-first-use',
  setup(b) {
    const swaggers = new RegExp(`node_modules/(${ownFolderPackages.join('|')})/`);
    b.onResolve({ filter: /^yaml$/ }, (args) =>
      swaggers.test(args.importer) ? { path: 'yaml', namespace: 'yaml-on-first-use' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'yaml-on-first-use' }, () => ({
      contents: [
        'let yaml;',
        'module.exports = new Proxy({}, { get: (_, key) => (yaml ??= require("yaml"))[key] });',
      ].join('\n'),
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * The modules the service starts worker threads on, by their path under src/: each becomes a bundle of
 * its own, dist/<file name>.js, where src/shared/worker-threads.ts starts it from. Whole, not split
 * with the service: esbuild splits by file, and a worker's packages (csv-parse) would otherwise land
 * in a chunk the service loads at start for the few definitions it shares with the worker.
 */
const workers = ['catalogs/catalog-parse-worker'];

/**
 * Tracing's SDK and instrumentations, an entry of their own (dist/tracing.js) that the service
 * imports only when tracing is configured (src/tracing/index.ts): otherwise none of it is loaded.
 * Split with the service: what both use (OpenTelemetry's API) is one chunk, loaded once.
 */
const lazyEntries = { tracing: join(root, 'src/tracing/start-tracing.ts') };

/**
 * The prepared embedded database (src/embedded-template.ts) a first start copies into DATA_DIR. It is kept
 * from one build to the next while what it is made of is unchanged (its key, below): making it takes
 * some ten seconds. Its program is one whole bundle, dist/embedded-template.js, so that the key is its
 * text alone, and a change to the service only does not make it anew.
 */
const template = join(dist, 'embedded-database');
const templateEntry = { 'embedded-template': join(root, 'src/embedded-template.ts') };

/** What the prepared database is made of: its program, the migrations, the shipped catalogs, PGlite. */
function templateKey(program) {
  const hash = createHash('sha256').update(program);
  const folders = ['src/db/migrations', 'catalog-data'];
  for (const folder of folders) {
    for (const name of readdirSync(join(root, folder)).sort())
      hash.update(name).update(readFileSync(join(root, folder, name)));
  }
  return hash.update(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'))).digest('hex');
}

/** Makes the prepared database anew when its key changed; a failure fails the build and leaves none. */
function prepareTemplate() {
  const program = join(dist, 'embedded-template.js');
  const key = templateKey(readFileSync(program));
  const keyFile = join(template, 'key');
  if (existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key) return;
  rmSync(template, { recursive: true, force: true });
  const partial = `${template}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const started = performance.now();
  execFileSync(process.execPath, [program, partial], { stdio: 'inherit' });
  writeFileSync(join(partial, 'key'), key);
  renameSync(partial, template);
  console.log(`embedded database prepared in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** The newest modification time among the sources and the build's configuration. */
function newestSource(dir = join(root, 'src'), newest = 0) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = newestSource(path, newest);
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale() {
  if (!existsSync(stamp)) return true;
  const configs = ['scripts/build.mjs', 'package-lock.json'].map((f) => statSync(join(root, f)).mtimeMs);
  return Math.max(newestSource(), newestSource(join(root, 'catalog-data')), ...configs) > statSync(stamp).mtimeMs;
}

if (process.argv.includes('--if-stale') && !stale()) process.exit(0);

/**
 * dist/main.js: Node's compile cache (Node 22.1+) keeps V8's compiled code of the modules loaded after it is
 * turned on, so it is turned on before the bundle loads. The cache lives in NODE_COMPILE_CACHE, else in the
 * system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off. Older Node lacks the function.
 */
const entry = [
  '// Written by scripts/build.mjs: the compile cache first, then the service (dist/service.js).',
  'import module from "node:module";',
  '',
  'module.enableCompileCache?.();',
  'await import("./service.js");',
  '',
].join('\n');

/** What both builds share: ES modules for Node, the packages above left out. */
const common = {
  outdir: dist,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  // The packages written as CommonJS call require() and use __dirname: in an ES module (every output file,
  // chunks included) these are made from the file's own URL.
  banner: {
    js: [
      "import { createRequire as __bundleCreateRequire } from 'node:module';",
      "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
      'const require = __bundleCreateRequire(import.meta.url);',
      'const __filename = __bundleFileURLToPath(import.meta.url);',
      "const __dirname = __bundleFileURLToPath(new URL('.', import.meta.url));",
      "import { dirname as __bundleDirname, join as __bundleJoin } from 'node:path';",
      'const __bundlePackageFolder = (name, folder) =>',
      '  __bundleJoin(__bundleDirname(require.resolve(`${name}/package.json`)), folder);',
    ].join('\n'),
  },
  // Stack traces name the files of dist/ (dist/service.js, its chunks); with NODE_OPTIONS=--enable-source-maps
  // they name the sources (docs/operations.md, "Running").
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  write: false,
};

const started = performance.now();
console.log('bundling the service into dist/ (npm run build)…');
let outputs;
try {
  const builds = await Promise.all([
    // The service, split: each package the code imports with import() where it first needs it is a chunk
    // of its own (dist/chunks/), read only then; what the service and tracing share is a chunk too.
    build({
      ...common,
      plugins: [packageFolders, yamlOnFirstUse],
      entryPoints: { service: join(root, 'src/main.ts'), ...lazyEntries },
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
    }),
    // The workers and the prepared database's program: whole bundles, one file each.
    build({
      ...common,
      entryPoints: {
        ...Object.fromEntries(workers.map((name) => [basename(name), join(root, 'src', `${name}.ts`)])),
        ...templateEntry,
      },
    }),
  ]);
  outputs = builds.flatMap((result) => result.outputFiles);
} catch {
  // esbuild has printed what failed, with the file and line.
  console.error('build failed: dist/ was not updated');
  process.exit(1);
}
// Written only once the whole bundle is built: a failed build leaves the previous one in place. The
// prepared database stays while its key holds.
mkdirSync(dist, { recursive: true });
for (const name of readdirSync(dist)) if (name !== basename(template)) rmSync(join(dist, name), { recursive: true });
for (const file of outputs) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.contents);
}
writeFileSync(join(dist, 'main.js'), entry);
console.log(`bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
prepareTemplate();
writeFileSync(stamp, `${new Date().toISOString()}\n`);
