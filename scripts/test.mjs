#!/usr/bin/env node
/**
 * The second half of `npm test` (the first, `npm run build`, writes src's declarations and the
 * esbuild bundle into dist/, which the CLI and pack tests use): vitest and the type check of the tests, scripts and
 * examples (`tsc -b tsconfig.json`, against src's declarations) run side by side instead of one
 * after the other. vitest's workers spend much of the run waiting (Chromium, npm, child CLIs,
 * loopback HTTP), so the check, at a lower priority, fills the idle core instead of adding its
 * 20 s to the wall time. The check's output is printed after vitest's; the command fails when
 * either fails. Arguments go to `vitest run` (`npm test -- test/cli/cli.test.ts`).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const exited = (child) => new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));

const tsc = spawn(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
try {
  // Nice 10: the check takes what vitest leaves; vitest keeps its pace (and its time limits).
  if (tsc.pid !== undefined) setPriority(tsc.pid, 10);
} catch {
  // Not allowed to lower it: it simply runs at the same priority.
}
let checked = '';
tsc.stdout.on('data', (d) => (checked += d));
tsc.stderr.on('data', (d) => (checked += d));

const vitest = spawn(
  process.execPath,
  [join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
// An interrupted run stops both.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    tsc.kill(signal);
    vitest.kill(signal);
  });

const [testsCode, checkCode] = await Promise.all([exited(vitest), exited(tsc)]);
if (checkCode === 0) process.stdout.write('\ntsc -b tsconfig.json: the tests, scripts and examples type-check\n');
else process.stdout.write(`\ntsc -b tsconfig.json failed (exit ${checkCode}):\n${checked}\n`);
process.exit(testsCode !== 0 ? testsCode : checkCode);
