import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects. `npm test` (`vitest run`) runs both; `npm run test:unit` (`vitest run --project
 * unit`) runs only `unit`, in under two minutes on an idle two-core machine.
 *
 * `slow` holds what starts a .NET process (test/workloads) or a browser (Chromium via
 * playwright-core against `gcscope serve`), and the exhaustive fault runs that take tens of
 * seconds each.
 */
const SLOW = [
  // Chromium against `gcscope serve`, most with a live .NET workload.
  'test/e2e/**/*.test.ts',
  // Recording real .NET processes.
  'test/live/live.test.ts',
  'test/live/recording-control.test.ts',
  'test/live/record-launched.test.ts',
  'test/live/runtimes.test.ts',
  'test/live/stacks-live.test.ts',
  'test/live/datas-live.test.ts',
  'test/live/requests-live.test.ts',
  // record and watch with a relative --out, recovered from another folder.
  'test/live/relative-out.test.ts',
  // A workload in its own PID and mount namespaces (a container, to the host) recorded from outside.
  'test/live/containers-live.test.ts',
  // Each problem mode and GC mode recorded afresh on this machine's .NET 10.
  'test/diagnosis/problem-workloads-live.test.ts',
  'test/nettrace/fresh-traces.test.ts',
  // `gcscope watch` against real .NET processes.
  'test/watch/watch-live.test.ts',
  // Real traces cut at every block boundary and many offsets (a minute and more on its own).
  'test/nettrace/truncation.test.ts',
  // The store under faults through the built CLI: 20 rounds of two processes creating one database, kill -9, …
  'test/hardening/store-faults.test.ts',
  // Peak RSS of the CLI on zip bombs and large generated traces.
  'test/hardening/bounded-memory.test.ts',
  // The in-suite CLI fuzzer (the long run is `npm run fuzz`).
  'test/hardening/fuzz-cli.test.ts',
  // Heap snapshots of a real .NET process against dotnet-gcdump.
  'test/heap/snapshot-live.test.ts',
  // Compares the findings worker's CPU priority with the test process's own, which must be the
  // normal one: scripts/test.mjs runs the unit project at a lower priority.
  'test/service/thread-priority.test.ts',
];

const include = ['test/**/*.test.ts', 'src-renderer/**/*.test.ts'];

/**
 * `npm run test:unit` alone (`--project unit`): every core, and no .NET process. `npm test`
 * (scripts/test.mjs) runs the unit project in a second vitest process beside the slow one
 * (GCSCOPE_TEST_BESIDE_SLOW=1): one worker at a lower CPU priority, so the slow files' timing-bound
 * checks (e.g. watch's hundreds of GCs a second) keep their core; and with .NET, so a test that can
 * check against a .NET process (the TraceEvent oracle) does, and CI never passes by skipping it.
 */
const unitAlone =
  process.env.GCSCOPE_TEST_BESIDE_SLOW !== '1' && process.argv.some((a, i) => a === '--project=unit' || (a === '--project' && process.argv[i + 1] === 'unit'));

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include,
          exclude: [...configDefaults.exclude, ...SLOW],
          ...(unitAlone
            ? {
                // A test that can also check against a .NET process (the TraceEvent oracle) checks without one here (test/workloads/workload.ts).
                env: { GCSCOPE_TEST_NO_DOTNET: '1' },
                // Every core (vitest's default leaves one free: a single worker on two cores).
                maxWorkers: Math.max(2, availableParallelism()),
              }
            : {}),
        },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
