import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC keeps decorator metadata (esbuild drops it, and Nest's injection then breaks).
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: { conditions: ['source'] },
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
  },
});
