/**
 * examples/python with the npm package's CLI (what `npx health-sandbox` runs; the compiled
 * dist/cli.js, or src through tsx when dist is older than src: test/support/cli-command.ts),
 * chosen through the fixture's HEALTH_SANDBOX_COMMAND. test/binary/binary.test.ts runs the same
 * suite against the standalone binary with no Node on PATH. Skipped with one line without a
 * python3 that has pytest and httpx; required in CI (test/binary/python.ts).
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../support/cli-command.js';
import { pythonWithPytest, runPytest } from './python.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** One shell word for Python's shlex.split. */
const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

describe('examples/python (pytest + httpx) against the CLI', () => {
  const python = pythonWithPytest();
  it.skipIf(python === undefined)(
    'passes: users, a webhook at the receiver, faults and retries, a lab order on the clock, the journal',
    async () => {
      const command = [process.execPath, ...cliArgs([])].map(quote).join(' ');
      const run = await runPytest(python!, root, { ...process.env, HEALTH_SANDBOX_COMMAND: command, HEALTH_SANDBOX_BIN: '' });
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/\b10 passed\b/);
    },
  );
});
