import swc from 'unplugin-swc';
import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const EVENTSOURCE_PARSER_STREAM = createRequire(import.meta.url).resolve(
  'eventsource-parser/stream',
);

// SWC keeps decorator metadata (esbuild drops it, and Nest's injection then breaks).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    conditions: ['source'],
    // The 'source' condition points #app/* at our TypeScript; eventsource-parser (which the MCP
    // SDK's HTTP client imports) answers it with TypeScript of its own, which is not compiled.
    alias: [{ find: /^eventsource-parser\/stream$/, replacement: EVENTSOURCE_PARSER_STREAM }],
  },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['libs/**/*.spec.ts', 'apps/**/*.spec.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // The files mostly wait on Redis, databases and child processes, not the CPU: on a
    // two-core machine Vitest's default (cores - 1) would run them one at a time.
    maxWorkers: 4,
    // A hang guard, not a speed check: the property and fault tests take 40 to 60 s of a full
    // run on a shared two-core machine, and must not fail for a slow neighbour.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
    // Through Vite, so that the alias above applies to its import.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk\/dist\/esm\/client\/streamableHttp/] } },
  },
});
