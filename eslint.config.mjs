// Lint rules, including the ones that keep the layers pointing one way:
// core <- protocol <- server <- client, core <- webview, core <- cli.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'child_process',
  'util',
  'stream',
  'readline',
  'crypto',
  'url',
  'worker_threads',
  'events',
  'buffer',
  'process',
  'net',
  'http',
];
const noNode = nodeBuiltins.flatMap((m) => [m, `${m}/*`]).concat(['node:*']);
const editorModules = [
  'vscode',
  'vscode-languageserver',
  'vscode-languageserver/*',
  'vscode-languageclient',
  'vscode-languageclient/*',
  'vscode-languageserver-textdocument',
];
// Upper layers see core through its index (core/src/index.ts), its one public API.
const coreInternals = '**/core/src/**';
const layer = (patterns, message) => ({
  patterns: [
    { group: patterns, message },
    { group: [coreInternals], message: 'import core from its index (core/src), its public API.' },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          [
            ...noNode,
            ...editorModules,
            '../../*',
            '**/server/**',
            '**/client/**',
            '**/webview/**',
            '**/cli/**',
            '**/protocol/**',
          ],
          'core is pure: no Node, editor, DOM or upper-layer imports.',
        ),
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'process', 'require', 'Buffer', 'console'],
    },
  },
  {
    files: ['protocol/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          [
            ...noNode,
            'vscode',
            'vscode-languageclient',
            'vscode-languageclient/*',
            '**/server/**',
            '**/client/**',
            '**/webview/**',
            '**/cli/**',
          ],
          'protocol depends on core only.',
        ),
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          [
            'vscode',
            'vscode-languageclient',
            'vscode-languageclient/*',
            '**/client/**',
            '**/webview/**',
            '**/cli/**',
          ],
          'the server must not depend on the client, the webview or the CLI.',
        ),
      ],
      'no-console': 'error',
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          [...noNode, ...editorModules, '**/server/**', '**/client/**', '**/cli/**'],
          'the webview sees core and protocol only.',
        ),
      ],
    },
  },
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          ['**/server/**', '**/webview/**', '**/cli/**'],
          'the client talks to the server over LSP and to the webview by messages, never by import.',
        ),
      ],
    },
  },
  {
    files: ['cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer([...editorModules, '**/server/**', '**/client/**', '**/webview/**'], 'the CLI sees core only.'),
      ],
    },
  },
);
