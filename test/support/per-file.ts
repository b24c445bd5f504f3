/**
 * Runs around every test file (vitest `setupFiles`). The suite runs without module isolation
 * (`isolate: false`: each worker loads the sandbox, the SDK and msw once, not once per file), so
 * what one file opens must be closed when it ends, not when the worker exits.
 *
 * `HEALTH_SANDBOX_CPU_LOG=<file>` appends one line per test file, `<user+system ms>\t<wall
 * ms>\t<file>`, the worker's `process.cpuUsage()` between this file's first hook and its last
 * (imports of modules the worker already loaded cost nothing; the first file of a worker pays
 * them). Run with `--maxWorkers 1` (or `nice -n 19`) so a file's CPU is its own.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { closeClients } from './client.js';

afterAll(closeClients);

const CPU_LOG = process.env['HEALTH_SANDBOX_CPU_LOG'];
if (CPU_LOG) {
  let cpu = process.cpuUsage();
  let wall = performance.now();
  beforeAll(() => {
    cpu = process.cpuUsage();
    wall = performance.now();
  });
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    const file = (expect.getState().testPath ?? 'unknown').replace(`${process.cwd()}/`, '');
    const ms = (used.user + used.system) / 1000;
    appendFileSync(CPU_LOG, `${ms.toFixed(0)}\t${(performance.now() - wall).toFixed(0)}\t${file}\n`);
  });
}
