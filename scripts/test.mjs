#!/usr/bin/env node
/**
 * The second half of `npm test` (the first, `npm run build`, writes src's declarations and the
 * esbuild bundle into dist/, which the CLI and pack tests use, and skips the bundle when its
 * inputs have not changed): vitest, and beside it the lint (`biome ci --error-on-warnings .`) and
 * the type check of the tests, scripts and examples (`tsc -b tsconfig.json --incremental`, against
 * src's declarations). vitest's workers spend part of the run waiting (Chromium, npm, child CLIs,
 * loopback HTTP), so the checks, at a lower priority, fill the idle core instead of adding their
 * time before or after vitest's. The check is incremental (its state in
 * dist/tsconfig.check.tsbuildinfo): unchanged files are not checked again, about 25 s of CPU saved
 * on a run after the first. The checks' output is printed after vitest's; the command fails when
 * any fails. Arguments go to `vitest run` (`npm test -- test/cli/cli.test.ts`).
 *
 * With `HEALTH_SANDBOX_SLOW_TESTS=1` (`.ci/run` sets it), once all pass, the worked example of
 * docs/ENGINE.md is applied to a scratch copy and the full route-table suites run there
 * (`scripts/check-engine-example.sh`, minutes); `npm test` always runs its fast in-process check
 * (test/engine/engine-example-applied.test.ts).
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const exited = (child) => new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));

/** A check beside vitest at nice 10 (it takes what vitest leaves; vitest keeps its pace and its time limits). */
function check(name, command, args) {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    if (child.pid !== undefined) setPriority(child.pid, 10);
  } catch {
    // Not allowed to lower it: it simply runs at the same priority.
  }
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return { name, child, output: () => output, exited: exited(child) };
}

const checks = [
  check('tsc -b tsconfig.json: the tests, scripts and examples type-check', process.execPath, [
    require.resolve('typescript/bin/tsc'),
    '-b',
    'tsconfig.json',
    '--incremental',
  ]),
  check('biome ci --error-on-warnings .: formatted and linted', process.execPath, [
    join(dirname(require.resolve('@biomejs/biome/package.json')), 'bin/biome'),
    'ci',
    '--error-on-warnings',
    '.',
  ]),
];

const vitest = spawn(
  process.execPath,
  [join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), 'run', ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
// An interrupted run stops them all.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const c of checks) c.child.kill(signal);
    vitest.kill(signal);
  });

const [testsCode, ...checkCodes] = await Promise.all([exited(vitest), ...checks.map((c) => c.exited)]);
let failed = testsCode;
checks.forEach((c, i) => {
  const code = checkCodes[i];
  if (code === 0) process.stdout.write(`\n${c.name}\n`);
  else {
    process.stdout.write(`\n${c.name.split(':')[0]} failed (exit ${code}):\n${c.output()}\n`);
    failed ||= code ?? 1;
  }
});
if (failed !== 0) process.exit(failed);
if (process.env.HEALTH_SANDBOX_SLOW_TESTS === '1') {
  process.stdout.write('\nscripts/check-engine-example.sh: the worked example of docs/ENGINE.md on a scratch copy\n');
  process.exit(await exited(spawn('bash', ['scripts/check-engine-example.sh'], { stdio: 'inherit' })));
}
