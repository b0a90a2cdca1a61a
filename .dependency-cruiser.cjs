/* global module */
/**
 * Module boundaries of src/ (docs/architecture.md, "Modules"), checked by `npm run lint`:
 * - no import circles;
 * - a file of one module imports another module only through that module's `index.ts`;
 * - modules never import the composition root (src/app.ts, src/composition.ts, src/main.ts) nor test/.
 * Tests (`*.test.ts`) may reach into the module they sit beside, and are not checked here.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the shared part out, or pass it in as a dependency.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { circular: true, pathNot: '\\.test\\.ts$' },
    },
    {
      name: 'module-internals',
      severity: 'error',
      comment: "Another module's internals: import its index.ts instead.",
      from: { path: '^src/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/([^/]+)/(?!index\\.ts$).+', pathNot: ['^src/$1/', '\\.test\\.ts$'] },
    },
    {
      name: 'root-internals',
      severity: 'error',
      comment: 'The composition root uses each module through its index.ts.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/[^/]+/(?!index\\.ts$).+' },
    },
    {
      name: 'no-root-from-modules',
      severity: 'error',
      comment: 'Modules do not import the composition root.',
      from: { path: '^src/[^/]+/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(app|composition|main)\\.ts$' },
    },
    {
      name: 'no-test-from-src',
      severity: 'error',
      comment: 'Production code and its fixtures do not import test/.',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs'] },
  },
};
