// ESLint flat config: a modest rule set, run by `npm test` (npm run lint). typescript-eslint's
// recommended rules without type information, so a run stays a few seconds on two cores.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'reports/**',
      '.stryker-tmp/**',
      'fixtures/**',
      'examples/**/node_modules/**',
      // The matrices' install and Python venvs (test/matrices/.cache), installed on first use.
      'test/matrices/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        clearImmediate: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      // Unused bindings are dead code; a leading underscore marks one kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // Type imports stay type imports, so the boundary tool and the emitted JS agree on what is a dependency.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // Importing @fast-check/vitest 0.5 with vitest 4.1 walks every chain of vitest's test API (249,438 of them: 2 CPU-s),
    // paid again by every test file that starts a fresh module graph (decision 0122). Properties are written with
    // fast-check's own fc.assert inside vitest's test.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@fast-check/vitest',
              message: "costs 2 CPU-s per file: use vitest's test with fc.assert(fc.property(...)) from fast-check",
            },
          ],
        },
      ],
    },
  },
);
