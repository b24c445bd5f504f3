import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';
import { bundleInspector } from './scripts/inspector-bundle.mjs';

/**
 * Files that mostly wait (npm, Chromium, child processes, real HTTP deliveries) or run long, in
 * the order they start: longest first, so the short files fill the cores around them and the run
 * ends on short files on every worker. vitest orders files by the test durations of its last run
 * (not counting a file's imports and collection: `conformance.test.ts` builds its whole report
 * while collecting and was left for last, alone, 15 s on a loaded machine), and a fresh clone has
 * none and falls back to file size. Measured with `HEALTH_SANDBOX_CPU_LOG` (test/support/per-file.ts,
 * summarised by test/support/cpu-log.mjs: wall time from the file's setup to its end).
 */
const SLOW_FIRST = [
  'test/package/fresh-clone.test.ts',
  'test/package/pack.test.ts',
  'test/route-table/adapters-parity.test.ts',
  'test/route-table/robustness.test.ts',
  'test/persistence/state-file-cli.test.ts',
  'test/route-table/openapi-documents.test.ts',
  'test/route-table/conformance.test.ts',
  'test/management/management-access.test.ts',
  'test/journal/inspector.browser.test.ts',
  'test/journal/inspector-steer.browser.test.ts',
  'test/journal/inspector-views.browser.test.ts',
  'test/wearables/wearables-feed.test.ts',
  'test/adapters/browser-docs.test.ts',
  'test/route-table/wire-answers.test.ts',
  'test/cli/stop.test.ts',
  'test/package/examples.test.ts',
  'test/link/launcher-react.test.ts',
  'test/link/launcher-recipes.test.ts',
  'test/faults/browser-faults.test.ts',
  'test/wearables/wearables-events.test.ts',
  'test/webhooks/webhooks-hanging-backlog.test.ts',
  'test/persistence/restore-routes.test.ts',
  'test/labs/lab-report-parser.test.ts',
  // 1,000 requests locally (a few seconds), 5,000 in CI (HEALTH_SANDBOX_SLOW_TESTS=1).
  'test/route-table/fuzz.test.ts',
  'test/webhooks/e2e-webhooks.test.ts',
  'test/testkit/testkit-testing.test.ts',
  'test/cli/cli.test.ts',
  'test/webhooks/event-rate.test.ts',
  'test/wearables/sdk-wearables.test.ts',
  'test/route-table/get-read-only.test.ts',
  'test/adapters/browser-worker.test.ts',
  'test/link/browser-link.test.ts',
  'test/cli/cli-shutdown.test.ts',
  'test/adapters/browser-cors.test.ts',
  'test/package/readme-example.test.ts',
  'test/labs/sdk-labs.test.ts',
  'test/management/management-teams.test.ts',
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  // The inspector's browser code, as the package carries it (scripts/build.mjs): src/handlers/sandbox/ui-app.ts reads it.
  define: { __HEALTH_SANDBOX_INSPECTOR__: JSON.stringify(await bundleInspector(fileURLToPath(new URL('.', import.meta.url)))) },
  test: {
    include: ['test/**/*.test.ts'],
    // Time limits catch a hang, not slowness: on a 2-core machine shared with other work, heavy
    // in-process files passed 30 s (a clean clone's CI went red on it), so two minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // The workers build and drop worlds, exports and answers of megabytes, and collected 14% of
    // their time: a young generation of 32 MB semi-spaces (Node 20's V8 grows them to 16 MB) makes
    // fewer scavenges, and one GC thread (no helper threads marking and scavenging beside the
    // worker's own, which on two cores shared by two workers only take turns with them) less
    // overhead: about 3% less CPU each in the heaviest files (five paired runs each, 2026-11-29).
    execArgv: ['--max-semi-space-size=32', '--single-threaded-gc'],
    // Each worker loads the sandbox, the official SDK and msw once instead of once per file: that
    // import was over a third of the suite's time. Tests share no state but the module cache;
    // `test/support/per-file.ts` closes what each file opened.
    isolate: false,
    // vitest's default is one worker per core minus one: a single worker on the 2-core machines.
    // Two workers: since the waits were cut (npm installs kept, page bundles kept, the docs page's
    // big documents rendered in CI only), a third worker only loads everything a third time: on the
    // quiet 2-core machine (2026-11-27) `npm test` took 1 min 34 s and 161 s of CPU with three,
    // 1 min 18 s and 130 s with two. (Before those cuts three beat one: 141 s against 230 s.)
    maxWorkers: 2,
    sequence: { sequencer: SlowFirst },
    setupFiles: ['test/support/per-file.ts'],
    // Transformed modules kept on disk between runs (keyed by their content): the second run of
    // the suite does not transform src, the tests and the scripts again (a few seconds of CPU).
    // In the worktree, not in node_modules (which may be shared); test/.artifacts is ignored by git.
    experimental: { fsModuleCache: true, fsModuleCachePath: 'test/.artifacts/vitest-cache' },
    // The main process's CPU in HEALTH_SANDBOX_CPU_LOG (first, so it ends last), the reference checks' notice.
    globalSetup: ['test/support/main-cpu.ts', 'test/support/reference-notice.ts'],
  },
});
