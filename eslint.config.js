// Lint of the whole project: ESLint's and typescript-eslint's recommended rules, lines up to 120
// characters (outside src/, long URLs, strings and regular expressions excepted). In src/ every line,
// strings and comments included, holds in 120 characters and no function but a test file's is over 100 lines.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', '.test-template/', 'openapi.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        performance: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        DOMException: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        Blob: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['src/**'],
    rules: {
      'max-len': ['error', { code: 120 }],
      'max-lines-per-function': ['error', { max: 100 }],
    },
  },
  {
    // A test file's describe holds a list of tests, each read on its own: its length is not a function's.
    files: ['src/**/*.test.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
);
