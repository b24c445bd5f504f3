/**
 * The standalone executable (issue 44): `npm run build:binary` writes dist-bin/health-sandbox;
 * copied alone into an empty folder and run with a PATH that holds no `node` (the folder itself)
 * and no node_modules anywhere above it, it serves as `npx health-sandbox` does: the `--json`
 * line, the data, management and control routes, the `/docs` page's embedded Swagger UI, a state
 * file kept across a restart, SIGTERM exiting 0, `--help` and a bad flag. With Python (pytest and
 * httpx) the examples/python suite runs against it too: a Python team's path with no Node at all.
 * The build is skipped when nothing it is made of changed (scripts/build-binary.mjs).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpText } from '../../src/adapters/cli-options.js';
import { readDockerfile } from './dockerfile.js';
import { pythonWithPytest, runPytest } from './python.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = join(root, 'dist-bin/health-sandbox');
const run = promisify(execFile);
let folder = '';
let binary = '';
const children: ChildProcess[] = [];

interface StartLine {
  url: string;
  management_url: string;
  org_id: string;
  management_key: string;
  teams: Array<{ team_id: string; api_keys: { sandbox: string } }>;
  seed: number;
  clock: { now: string; mode: string };
  admin_token: string | null;
}

/** A PATH of the empty folder only: no `node`, no `npx`. */
function bare(): NodeJS.ProcessEnv {
  return { PATH: folder, HOME: folder, LANG: 'C' };
}

async function start(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ child: ChildProcess; line: StartLine; exited: Promise<number | null> }> {
  const child = spawn(binary, ['--port', '0', '--json', ...args], {
    cwd: folder,
    env: { HEALTH_SANDBOX_HOST: '127.0.0.1', ...env, ...bare() },
  });
  children.push(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const first = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`the binary exited (${code}) before its --json line: ${stderr}`)));
  });
  return { child, line: JSON.parse(first) as StartLine, exited };
}

async function call(method: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text, json: () => JSON.parse(text) as Record<string, unknown> };
}

beforeAll(() => {
  const build = spawnSync(process.execPath, [join(root, 'scripts/build-binary.mjs')], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`npm run build:binary failed:\n${build.stdout}\n${build.stderr}`);
  folder = mkdtempSync(join(tmpdir(), 'health-sandbox-bin-'));
  binary = join(folder, 'health-sandbox');
  copyFileSync(built, binary);
  spawnSync('chmod', ['755', binary]);
}, 300_000);

afterAll(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('dist-bin/health-sandbox, alone in an empty folder with no node on PATH', () => {
  it('is one executable of a Node SEA, and nothing around it provides Node or packages', () => {
    expect(readdirSync(folder)).toEqual(['health-sandbox']);
    expect(statSync(binary).size).toBeGreaterThan(20 * 1024 * 1024);
    expect(existsSync(join(folder, 'node'))).toBe(false);
    // No node_modules in the folder or any folder above it.
    for (let dir = folder; dir !== dirname(dir); dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    // With this PATH there is no node to run: a shell finds none.
    expect(spawnSync('/bin/sh', ['-c', 'command -v node npx'], { env: bare() }).status).not.toBe(0);
  });

  it('--help prints the CLI help, a bad flag exits 2', () => {
    const help = spawnSync(binary, ['--help'], { cwd: folder, env: bare(), encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(helpText());
    const bad = spawnSync(binary, ['--port', 'nope'], { cwd: folder, env: bare(), encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^health-sandbox: --port must be a whole number/);
  });

  it('serves every surface, keeps the world in its state file across a restart, and stops on SIGTERM with exit 0', async () => {
    const { child, line, exited } = await start(['--clock', 'manual', '--state-file', 'state.json', '--seed', '5']);
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(line).toMatchObject({ seed: 5, clock: { mode: 'manual', now: '2026-01-05T09:00:00.000Z' } });
    const team = line.teams[0]!;
    const key = { 'x-vital-api-key': team.api_keys.sandbox };

    expect((await call('GET', `${line.url}/_sandbox/health`)).json()).toEqual({ status: 'ok' });
    expect((await call('GET', `${line.url}/_sandbox/credentials`)).json()).toMatchObject({ org_id: line.org_id, base_url: line.url });
    const user = await call('POST', `${line.url}/v2/user`, key, { client_user_id: 'binary-user' });
    expect(user.status).toBe(200);
    const userId = user.json().user_id as string;
    const demo = await call('POST', `${line.url}/v2/link/connect/demo`, key, { user_id: userId, provider: 'oura' });
    expect(demo.status, demo.text).toBe(200);
    const providers = await call('GET', `${line.url}/v2/user/providers/${userId}`, key);
    expect(providers.text).toContain('"slug":"oura"');
    const advanced = await call('POST', `${line.url}/_sandbox/clock/advance`, {}, { duration: '2h' });
    expect(advanced.json()).toMatchObject({ now: '2026-01-05T11:00:00.000Z' });
    const teams = await call('GET', `${line.management_url}/v1/org/${line.org_id}/team`, { 'x-management-key': line.management_key });
    expect(teams.status, teams.text).toBe(200);
    // A bad body: a 422 with detail, as from the npm package.
    const bad = await call('POST', `${line.url}/v2/user`, key, {});
    expect(bad.status).toBe(422);
    expect(bad.json()).toHaveProperty('detail');
    // The documentation page and its Swagger UI, embedded in the binary (no swagger-ui-dist package here).
    expect((await call('GET', `${line.url}/openapi.json`)).status).toBe(200);
    const css = await call('GET', `${line.url}/docs/assets/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.type).toMatch(/^text\/css/);
    expect(css.text.length).toBeGreaterThan(10_000);
    expect((await call('GET', `${line.url}/_sandbox/ui`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(readFileSync(join(folder, 'state.json'), 'utf8')).toMatch(/^\{"format":"health-sandbox-state"/);

    // Restarted on its state file: the same keys, the user, the clock where it was.
    const again = await start(['--clock', 'manual', '--state-file', 'state.json']);
    expect(again.line.teams[0]!.api_keys.sandbox).toBe(team.api_keys.sandbox);
    expect(again.line.clock.now).toBe('2026-01-05T11:00:00.000Z');
    const kept = await call('GET', `${again.line.url}/v2/user/${userId}`, key);
    expect(kept.json()).toMatchObject({ client_user_id: 'binary-user' });
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  const python = pythonWithPytest();
  it.skipIf(python === undefined)('runs the examples/python suite with no Node: pytest starts the binary itself', async () => {
    const run = await runPytest(python!, root, { ...bare(), HEALTH_SANDBOX_BIN: binary });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/\b10 passed\b/);
  });

  it('runs as the container image would (its ENV: all interfaces, admin token) and serves the Python suite as a CI service', async () => {
    const image = readDockerfile();
    const { child, line, exited } = await start(image.cmd, {
      ...image.env,
      HEALTH_SANDBOX_PORT: '0',
      HEALTH_SANDBOX_ADMIN_TOKEN: 'ci-token',
    });
    expect(line.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    expect(line.admin_token).toBe('ci-token');
    // Reached over loopback, as a CI job reaches its service container by name.
    const url = line.url.replace('0.0.0.0', '127.0.0.1');
    expect((await call('GET', `${url}/_sandbox/credentials`)).status).toBe(401);
    expect((await call('GET', `${url}/_sandbox/credentials`, { authorization: 'Bearer ci-token' })).status).toBe(200);
    if (python !== undefined) {
      const run = await runPytest(python, root, { ...bare(), HEALTH_SANDBOX_URL: url, HEALTH_SANDBOX_ADMIN_TOKEN: 'ci-token' });
      expect(run.code, run.output).toBe(0);
      expect(run.output).toMatch(/\b10 passed\b/);
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('the GitHub Actions recipe of docs/other-languages.md, run as written by sh: waits for the --json line, pytest connects, kill stops it', async () => {
    const steps = githubRecipeSteps();
    const start = steps.find((step) => step.includes('head -n 1 sandbox.out'))!;
    const stop = steps.find((step) => step.startsWith('kill '))!;
    expect(steps).toContain('chmod +x bin/health-sandbox');
    expect(stop).toBe('kill "$(cat sandbox.pid)"');
    // The recipe's folder: bin/health-sandbox is the binary (downloaded there in the recipe).
    const dir = join(folder, 'recipe');
    mkdirSync(join(dir, 'bin'), { recursive: true });
    symlinkSync(binary, join(dir, 'bin/health-sandbox'));
    // The shell tools the recipe uses, and nothing else (no node): a folder of links to them.
    const tools = join(dir, 'tools');
    mkdirSync(tools);
    for (const tool of ['mkfifo', 'head', 'cat', 'sed', 'chmod']) symlinkSync(commandPath(tool), join(tools, tool));
    const env = { ...bare(), PATH: tools, GITHUB_ENV: join(dir, 'github.env') };
    writeFileSync(env.GITHUB_ENV, '');
    // python3 is the recipe's; with no python on this machine the URL line is written by hand.
    const withPython =
      python !== undefined
        ? start.replaceAll('python3 ', `${python} `)
        : start.replace(/echo .*$/m, 'echo "HEALTH_SANDBOX_URL=$(sed -E \'s/^\\{"url":"([^"]+)".*/\\1/\' sandbox.json)" >> "$GITHUB_ENV"');
    // The background binary keeps the step's stdout open: the step's own streams go to a file.
    await run('/bin/sh', ['-c', `(${withPython}) > step.log 2>&1`], { cwd: dir, env, timeout: 30_000 });
    const url = /^HEALTH_SANDBOX_URL=(http:\/\/127\.0\.0\.1:\d+)$/m.exec(readFileSync(env.GITHUB_ENV, 'utf8'))?.[1];
    expect(url, readFileSync(join(dir, 'step.log'), 'utf8')).toBeDefined();
    if (python !== undefined) {
      const tests = await runPytest(python, root, { ...bare(), HEALTH_SANDBOX_URL: url });
      expect(tests.code, tests.output).toBe(0);
    } else expect((await call('GET', `${url}/_sandbox/health`)).status).toBe(200);

    const socket = connect(Number(new URL(url!).port), '127.0.0.1');
    await once(socket, 'connect');
    const closed = once(socket, 'close');
    const pidFile = join(dir, 'sandbox.pid');
    const watcher = watch(dir);
    const removed = new Promise<void>((done) => watcher.on('change', () => !existsSync(pidFile) && done()));
    await run('/bin/sh', ['-c', stop], { cwd: dir, env, timeout: 10_000 });
    await closed;
    socket.destroy();
    if (existsSync(pidFile)) await removed;
    watcher.close();
    expect(existsSync(pidFile)).toBe(false);
  });
});

/** Where this machine's `tool` is (for the recipe's PATH of links). */
function commandPath(tool: string): string {
  const found = spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
  if (!found.startsWith('/')) throw new Error(`no ${tool} on this machine`);
  return found;
}

/** The `run:` steps of the first GitHub Actions YAML block of docs/other-languages.md, in order. */
function githubRecipeSteps(): string[] {
  const page = readFileSync(join(root, 'docs/other-languages.md'), 'utf8');
  const yaml = /### GitHub Actions: the binary as a background process\n+```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const lines = yaml.split('\n');
  const steps: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)(?:- )?run: (.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2] !== '|') {
      steps.push(m[2]!.replace(/\s+#.*$/, ''));
      continue;
    }
    const indent = m[1]!.length + 4;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.startsWith(' '.repeat(indent))) body.push(lines[++i]!.slice(indent));
    steps.push(body.join('\n'));
  }
  return steps;
}
