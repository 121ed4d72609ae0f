import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { readdirSync } from 'node:fs';

/**
 * The libraries each library may import (as `#app/<name>`). Every name listed sits above the
 * library that lists it, so the graph has no cycle; a new edge goes here first.
 */
const LIBRARY_GRAPH = {
  domain: [],
  config: ['domain'],
  webhooks: ['config', 'domain'],
  contracts: ['config', 'domain'],
  persistence: ['config', 'contracts', 'domain'],
  access: ['config', 'contracts', 'domain', 'persistence'],
  observability: ['config', 'contracts', 'persistence'],
  ingest: ['config', 'contracts'],
  client: [],
  mcp: ['client', 'domain'],
};

/** Packages that tie code to a framework or a store. */
const FRAMEWORKS = ['@nestjs/*', 'typeorm', 'typeorm/*', 'bullmq', 'ioredis', 'fastify', 'pg'];
/** The record declarations' decorators: the domain's records are class-validator classes. */
const VALIDATION = ['class-validator', 'class-transformer'];

/** The libraries that import none of the frameworks, the packages each avoids, and why. */
const FRAMEWORK_FREE = {
  domain: {
    packages: FRAMEWORKS,
    message:
      'The domain library is plain TypeScript; its record classes carry class-validator decorators alone.',
  },
  mcp: {
    packages: [...FRAMEWORKS, ...VALIDATION],
    message:
      'libs/mcp reaches the API through libs/client alone (the domain gives it its vocabulary), whatever process hosts it.',
  },
};

/** TypeORM is the persistence library's business alone. */
const TYPEORM = {
  group: ['typeorm', 'typeorm/*', '@nestjs/typeorm'],
  message: 'TypeORM stays in libs/persistence.',
};

/**
 * A relative import that walks into a `src/` folder has left its own app or library: another
 * app's code is never imported, and a library is imported by its name.
 */
const INTO_ANOTHER_PACKAGE = {
  regex: '^\\.\\.?/(.*/)?src/',
  message: 'Import a library as #app/<name>; an app never imports another app.',
};

function libraryBoundaries(name, allowed) {
  const others = Object.keys(LIBRARY_GRAPH).filter((other) => !allowed.includes(other));
  const patterns = [
    INTO_ANOTHER_PACKAGE,
    {
      // A regex: in a gitignore-style group, a leading # would make the pattern a comment.
      regex: `^#app/(${others.join('|')})$`,
      message: `libs/${name} may import ${allowed.length ? allowed.map((lib) => `#app/${lib}`).join(', ') : 'no other library'} (eslint.config.js, LIBRARY_GRAPH).`,
    },
  ];
  if (name in FRAMEWORK_FREE) {
    const { packages, message } = FRAMEWORK_FREE[name];
    patterns.push({ group: packages, message });
  } else if (name !== 'persistence') {
    patterns.push(TYPEORM);
  }
  return {
    files: [`libs/${name}/src/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
}

/** What no app imports: another app's code, TypeORM. */
const APP_PATTERNS = [INTO_ANOTHER_PACKAGE, TYPEORM];

/**
 * The API's feature folders: those that hold a controller. A feature imports the shared folders
 * (http, errors, openapi, auth, metering, catalogue, currency...) and never another feature:
 * what two features share moves to a shared folder.
 */
const API_SOURCE = new URL('./apps/api/src/', import.meta.url);
const FEATURES = readdirSync(API_SOURCE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) =>
    readdirSync(new URL(`${name}/`, API_SOURCE)).some((file) => file.endsWith('.controller.ts')),
  );

function featureBoundaries(feature) {
  const others = FEATURES.filter((other) => other !== feature);
  return {
    files: [`apps/api/src/${feature}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          // A file's last matching rule replaces the others' patterns: the apps' own come again.
          patterns: [
            ...APP_PATTERNS,
            {
              regex: `^(\\.\\./)+(${others.join('|')})/`,
              message: `The feature folder apps/api/src/${feature} imports no other feature: move what features share to a shared folder such as openapi/ or http/ (eslint.config.js, FEATURES).`,
            },
          ],
        },
      ],
    },
  };
}

const PROCESS_ENV = {
  object: 'process',
  property: 'env',
  message: 'Read the environment through libs/config (loadConfig).',
};

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'libs/client/src/schema.ts'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'off',
    },
  },
  // Boundaries: the apps and libraries, not the tests and benchmarks that compose them.
  {
    files: ['apps/api/src/**/*.ts', 'apps/worker/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: APP_PATTERNS }],
    },
  },
  ...FEATURES.map(featureBoundaries),
  {
    files: ['apps/standalone/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TYPEORM] }] },
  },
  // The explorer's script runs in the browser, as an ES module.
  {
    files: ['apps/api/src/explorer/assets/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'module' },
  },
  ...Object.entries(LIBRARY_GRAPH).map(([name, allowed]) => libraryBoundaries(name, allowed)),
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/config/**', '**/*.spec.ts'],
    rules: { 'no-restricted-properties': ['error', PROCESS_ENV] },
  },
);
