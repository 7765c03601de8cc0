import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every tier. A test file says its tier in its name:
//   *.unit.spec.ts  pure code, no I/O
//   *.int.spec.ts   real SQLite files, real HTTP on loopback, real child processes
//   *.e2e.spec.ts   the built app in headless Chromium at a phone viewport
// Run one tier with `npx vitest run --project unit` (or int, e2e).
const exclude = ['**/node_modules/**', '**/dist/**'];

export default defineConfig({
  test: {
    // One worker per core (vitest's default leaves one core idle): int and e2e files spend most of
    // their time waiting on API processes, servers and Chromium, so two files at once keep a
    // two-core CI machine busy. Browser files run two at a time too, mixed with int files (each has
    // its own server, data directory and browser); the whole e2e project passed that way at a load
    // of 25 on two cores, so their waits are conditions, not timings.
    maxWorkers: availableParallelism(),
    reporters: ['default', './scripts/src/vitest-summary.ts'],
    projects: [
      { test: { name: 'unit', include: ['**/*.unit.spec.ts'], exclude } },
      {
        test: {
          name: 'int',
          include: ['**/*.int.spec.ts'],
          exclude,
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // A throwaway PostgreSQL for the specs that run on it (inject('postgres')).
          globalSetup: ['./apps/api/src/event-store/postgres-cluster.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['**/*.e2e.spec.ts'],
          exclude,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
