/**
 * The CI recipe of docs/testing.md, run as written by `sh` (issue 32): its start step waits for
 * the `--json` line (a fifo and `head -n 1`), not for a time; `$GITHUB_ENV` then holds the URL,
 * the pid file the CLI's pid, and the stop step (`kill "$(cat sandbox.pid)"`) stops it: the test
 * waits for a connection held to its port to close and for the pid file to go. `npx
 * health-sandbox` is this repository's compiled CLI (`node dist/cli.js`), the only change.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'hs-ci-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `run:` scripts of the recipe's YAML block, in order. */
function recipeSteps(): string[] {
  const doc = readFileSync(join(root, 'docs/testing.md'), 'utf8');
  const yaml = /```yaml\n(# \.github\/workflows\/test\.yml[\s\S]*?)```/.exec(doc)?.[1] ?? '';
  const steps: string[] = [];
  const lines = yaml.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const m = /^\s*(?:- )?run: (.*)$/.exec(line);
    if (!m) continue;
    if (m[1] !== '|') {
      steps.push((m[1] as string).replace(/\s+#.*$/, ''));
      continue;
    }
    const body: string[] = [];
    while (i + 1 < lines.length && /^ {4}/.test(lines[i + 1] as string)) body.push((lines[++i] as string).slice(4));
    steps.push(body.join('\n'));
  }
  return steps;
}

it('the CI recipe starts the CLI, waits for its --json line, and its stop step stops it', { timeout: 60_000 }, async () => {
  const [start, test, stop] = recipeSteps();
  expect(start).toMatch(/head -n 1 sandbox\.out > sandbox\.json/);
  expect(test).toMatch(/^npm test/);
  expect(stop).toBe('kill "$(cat sandbox.pid)"');
  const env = { ...process.env, GITHUB_ENV: join(dir, 'github.env'), HEALTH_SANDBOX_PORT: '' };
  writeFileSync(env.GITHUB_ENV, '');
  const cli = `${process.execPath} ${join(root, 'dist/cli.js')}`;
  // The background CLI keeps the step's stdout open: the step's own streams go to a file.
  await run('sh', ['-c', `(${(start as string).replace('npx health-sandbox', cli)}) > step.log 2>&1`], { cwd: dir, env, timeout: 30_000 });
  const url = /^SANDBOX_URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(readFileSync(env.GITHUB_ENV, 'utf8'))?.[1];
  expect(url).toBeDefined();
  expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
  const pidFile = join(dir, 'sandbox.pid');
  expect(Number(readFileSync(pidFile, 'utf8'))).toBeGreaterThan(0);

  const socket = connect(Number(new URL(url as string).port), '127.0.0.1');
  await once(socket, 'connect');
  const closed = once(socket, 'close');
  // The pid file goes at exit (the stop step's kill went to the CLI itself): watched, not polled.
  const watcher = watch(dir);
  const removed = new Promise<void>((r) => {
    watcher.on('change', () => {
      if (!existsSync(pidFile)) r();
    });
  });
  await run('sh', ['-c', stop as string], { cwd: dir, env, timeout: 10_000 });
  await closed;
  socket.destroy();
  if (existsSync(pidFile)) await removed;
  watcher.close();
  expect(existsSync(pidFile)).toBe(false);
});
