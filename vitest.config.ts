import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Each worker loads the sandbox, the official SDK and msw once instead of once per file: that
    // import was over a third of the suite's time. Tests share no state but the module cache;
    // `test/support/per-file.ts` closes what each file opened.
    isolate: false,
    // vitest's default is one worker per core minus one: a single worker on the 2-core machines.
    // Much of the suite waits (Chromium, npm pack, child CLIs, loopback HTTP), so three workers
    // keep both cores busy: 141 s instead of 230 s for vitest on the 2-core machine.
    maxWorkers: 3,
    setupFiles: ['test/support/per-file.ts'],
    globalSetup: ['test/support/reference-notice.ts'],
  },
});
