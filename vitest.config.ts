import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Files that mostly wait (npm, Chromium, child processes, real HTTP deliveries) or run long, in
 * the order they start. vitest orders files by the durations of its last run, but a fresh clone
 * has none and falls back to file size, which can leave a 20-second file for last, alone on one
 * worker. Starting these first lets the short files fill the cores around them.
 */
const SLOW_FIRST = [
  'test/newcomer/fresh-clone.test.ts',
  'test/package/pack.test.ts',
  'test/route-table/adapters-parity.test.ts',
  'test/persistence/state-file-cli.test.ts',
  'test/journal/inspector.browser.test.ts',
  'test/link/launcher-react.test.ts',
  'test/link/launcher-recipes.test.ts',
  'test/faults/browser-faults.test.ts',
  'test/newcomer/stop.test.ts',
  'test/adapters/browser-docs.test.ts',
  'test/route-table/robustness.test.ts',
  // 1,000 requests locally (a few seconds), 5,000 in CI (HEALTH_SANDBOX_SLOW_TESTS=1).
  'test/route-table/fuzz.test.ts',
  'test/webhooks/e2e-webhooks.test.ts',
  'test/wearables/wearables-feed.test.ts',
  'test/package/examples.test.ts',
  'test/testkit/testkit-testing.test.ts',
  'test/cli/cli.test.ts',
  'test/adapters/browser-worker.test.ts',
  'test/link/browser-link.test.ts',
  'test/cli/cli-shutdown.test.ts',
  'test/adapters/browser-cors.test.ts',
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
  test: {
    include: ['test/**/*.test.ts'],
    // Time limits catch a hang, not slowness: on a 2-core machine shared with other work, heavy
    // in-process files passed 30 s (a clean clone's CI went red on it), so two minutes.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Each worker loads the sandbox, the official SDK and msw once instead of once per file: that
    // import was over a third of the suite's time. Tests share no state but the module cache;
    // `test/support/per-file.ts` closes what each file opened.
    isolate: false,
    // vitest's default is one worker per core minus one: a single worker on the 2-core machines.
    // Much of the suite waits (Chromium, npm pack, child CLIs, loopback HTTP), so three workers
    // keep both cores busy: 141 s instead of 230 s for vitest on the 2-core machine.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    setupFiles: ['test/support/per-file.ts'],
    globalSetup: ['test/support/reference-notice.ts'],
  },
});
