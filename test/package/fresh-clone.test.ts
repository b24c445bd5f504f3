/**
 * The README's first code block, run as written on a fresh clone (issue 32): `git clone` (of this
 * repository's committed HEAD instead of the GitHub URL), `npm ci && npm start` (npm's cache first:
 * `npm_config_prefer_offline`; port 0 and the `--json` line through their environment variables,
 * so it does not take 4250), a request to the world it serves, Ctrl-C (SIGINT to the foreground
 * process group, as a terminal sends it) stops it; then `npm test` there, limited to one test file
 * (the whole suite is the lead's run). The one slow test of this kind: bounded by time limits on
 * every step, skipped with one line when npm cannot reach the registry for a missing package.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'hs-clone-'));
const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;
let group: number | undefined;
afterAll(() => {
  if (group !== undefined) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Already stopped, as it should be.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh shell's environment: nothing of this suite's npm run, npm's cache first. */
function freshEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && !k.startsWith('HEALTH_SANDBOX_') && !k.startsWith('VITEST')) env[k] = v;
  return {
    ...env,
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

/** The commands of the README's first code block, comments dropped. */
function firstBlock(): string[] {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l !== '');
}

/**
 * Minutes of npm (a whole install and build in the clone), most of the suite's wall time: `.ci/run`
 * sets HEALTH_SANDBOX_SLOW_TESTS=1 and runs it; a local `npm test` skips it with one line.
 */
const SLOW = process.env.HEALTH_SANDBOX_SLOW_TESTS === '1';
if (!SLOW) console.warn('fresh-clone test skipped: set HEALTH_SANDBOX_SLOW_TESTS=1 to run it (.ci/run does)');

it.runIf(SLOW)("the README's first two commands work on a fresh clone", { timeout: 900_000 }, async (ctx) => {
  const [clone, start, test] = firstBlock();
  expect(clone).toBe('git clone https://github.com/health-sandbox/health-sandbox && cd health-sandbox');
  expect(start).toBe('npm ci && npm start');
  expect(test).toBe('npm test');

  const cwd = join(dir, 'health-sandbox');
  await run('git', ['clone', '--quiet', root, cwd], { timeout: 120_000 });
  const env = { ...freshEnv(), HEALTH_SANDBOX_PORT: '0', HEALTH_SANDBOX_JSON: '1' };
  // Its own process group, as a terminal's foreground job: Ctrl-C reaches every process in it.
  const shell = spawn('sh', ['-c', start ?? ''], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  group = shell.pid;
  const exited = new Promise<number | null>((r) => shell.once('exit', (code) => r(code)));
  let stderr = '';
  shell.stderr.on('data', (d) => (stderr += d));
  const line = await new Promise<string | null>((resolveLine) => {
    createInterface({ input: shell.stdout }).on('line', (l) => {
      if (l.startsWith('{')) resolveLine(l);
    });
    shell.once('exit', () => resolveLine(null));
  });
  if (line === null && OFFLINE.test(stderr)) {
    console.warn('fresh-clone test skipped: npm ci needs the registry, which cannot be reached');
    return ctx.skip();
  }
  expect(line, stderr).not.toBeNull();
  const started = JSON.parse(line as string) as { url: string; world: string; teams: Array<{ api_keys: { sandbox: string } }> };
  expect(started.world).toBe('default');
  const users = await fetch(`${started.url}/v2/user`, { headers: { 'x-vital-api-key': started.teams[0]?.api_keys.sandbox ?? '' } });
  expect(users.status).toBe(200);
  expect(((await users.json()) as { total: number }).total).toBeGreaterThan(0);

  const socket = connect(Number(new URL(started.url).port), '127.0.0.1');
  await once(socket, 'connect');
  const closed = once(socket, 'close');
  process.kill(-(shell.pid as number), 'SIGINT');
  await closed;
  await exited;
  group = undefined;

  // `npm test` as written, given one file (arguments go to vitest): lint, build, that file, type check.
  const tested = await run('npm', ['test', '--', 'test/labs/pdf-writer.test.ts'], {
    cwd,
    env: freshEnv(),
    timeout: 600_000,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (r) => ({ ok: true, out: r.stdout }),
    (e: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${e.stdout ?? ''}\n${e.stderr ?? ''}` }),
  );
  expect(tested.ok, tested.out.slice(-4000)).toBe(true);
  expect(tested.out.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+3 passed/);
});
