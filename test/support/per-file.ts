/**
 * Runs around every test file (vitest `setupFiles`). The suite runs without module isolation
 * (`isolate: false`: each worker loads the sandbox, the SDK and msw once, not once per file), so
 * what one file opens must be closed when it ends, not when the worker exits.
 *
 * `HEALTH_SANDBOX_CPU_LOG=<file>` appends one line per test file, `<user+system ms>\t<wall
 * ms>\t<file>\t<start>\t<end>\t<worker pid>` (start and end in epoch ms): the worker's
 * `process.cpuUsage()` and wall time from this file's setup (before the file is imported, so its
 * imports and collection count) to its last hook (imports of modules the worker already loaded
 * cost nothing; the first file of a worker pays them). The start and end times and the worker
 * show the run's critical path: which files start late or run alone at the end
 * (`node test/support/cpu-log.mjs <file>` summarises it).
 */
import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { closeClients } from './client.js';

afterAll(closeClients);

const CPU_LOG = process.env['HEALTH_SANDBOX_CPU_LOG'];
if (CPU_LOG) {
  // From this file's setup, which runs before the file is imported: its imports and its
  // collection (work done at the top of a describe) count too.
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const start = Date.now();
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    const file = (expect.getState().testPath ?? 'unknown').replace(`${process.cwd()}/`, '');
    const ms = (used.user + used.system) / 1000;
    appendFileSync(
      CPU_LOG,
      `${ms.toFixed(0)}\t${(performance.now() - wall).toFixed(0)}\t${file}\t${start}\t${Date.now()}\t${process.pid}\n`,
    );
  });
}
