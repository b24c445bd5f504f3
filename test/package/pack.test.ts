/**
 * The published package as a consumer gets it: `npm pack`, then install the tarball into a
 * temporary project that pins its own msw to another 2.x minor, and run a consumer script
 * there: one copy of msw (ours is a peer), the handlers match that copy's setupServer, the main
 * and msw entries load without express, the express entry asks for express. Uses the compiled
 * dist/ (`npm test` builds it first) and the npm registry (npm's cache first: `--prefer-offline`);
 * skips with one line if the install fails for want of a network. Bounded: every npm call has a
 * time limit. One npm install per project, all three at once once the tarball is packed (the
 * consumer, and the two of the install-size test, which waits for its own): for the typed express
 * check, a sibling project holds the consumer's installed packages plus express and its types
 * (linked from this repository's node_modules), checked beside the express-less consumer. The
 * installed projects are kept in the temporary directory and used again while the tarball's bytes
 * are the same (./install-cache.ts: the same day, not under `HEALTH_SANDBOX_SLOW_TESTS=1`): npm
 * packs every run, and every check below runs on every run.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { cachedProject, installKey } from './install-cache.js';

const run = promisify(execFile);
const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CONSUMER_MSW = '~2.12.0';
/** npm's codes for a registry it cannot reach (then the test skips instead of failing). */
const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|ENOTCACHED)\b/;

async function npm(args: string[], cwd: string, timeout: number): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    timeout,
    maxBuffer: 32 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  });
  return stdout;
}

/** Every installed copy of a package, at any depth of a node_modules tree: name -> versions. */
function installedVersions(nodeModules: string, name: string, found: string[] = []): string[] {
  if (!existsSync(nodeModules)) return found;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === '.bin') continue;
    const dirs = entry.name.startsWith('@') ? readdirSync(join(nodeModules, entry.name)).map((n) => `${entry.name}/${n}`) : [entry.name];
    for (const pkg of dirs) {
      const at = join(nodeModules, pkg);
      if (pkg === name) found.push((JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as { version: string }).version);
      installedVersions(join(at, 'node_modules'), name, found);
    }
  }
  return found;
}

/** Lifecycle scripts npm runs when a package is installed (`prepare` too, for tarballs and git). */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];

/** The packages of a consumer's lockfile that have install scripts. */
function withInstallScripts(project: string): string[] {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([, p]) => p.hasInstallScript)
    .map(([path]) => path);
}

/** Bytes of a directory tree (files' sizes; symlinks not followed). */
function treeSize(path: string): number {
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const at = join(path, entry.name);
    if (entry.isDirectory()) total += treeSize(at);
    else if (entry.isFile()) total += statSync(at).size;
  }
  return total;
}

/**
 * Another project's node_modules holding what `from` holds: the installed package copied (so
 * what it imports resolves beside it, in `to`), every other package linked.
 */
function mirrorInstall(from: string, to: string): void {
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('.')) continue;
    const names = entry.startsWith('@') ? readdirSync(join(from, entry)).map((n) => `${entry}/${n}`) : [entry];
    for (const name of names) {
      mkdirSync(join(to, name, '..'), { recursive: true });
      if (name === 'health-sandbox') cpSync(join(from, name), join(to, name), { recursive: true });
      else symlinkSync(join(from, name), join(to, name), 'dir');
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'hs-pack-'));
/**
 * Installed projects kept between runs (./install-cache.ts): the same tarball is installed once.
 * Outside the repository, as a consumer's project is (inside it, node would find express in the
 * repository's own node_modules).
 */
const CACHE = join(tmpdir(), `health-sandbox-pack-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`);
let tarball = '';
let integrity = '';
const FLAGS = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'];
/**
 * The install-size test's two projects (the tarball alone, msw alone), installed while the first
 * test installs and runs its consumer: their directories once installed, false offline, the error otherwise.
 */
let lightInstalls: Promise<{ ours: string; msw: string } | false | Error> | undefined;
afterAll(async () => {
  await lightInstalls;
  rmSync(dir, { recursive: true, force: true });
});

/** npm's install of `specs` into a new project at `at` (its manifest and files first): true once installed, false offline (the error otherwise). */
async function install(
  at: string,
  manifest: Record<string, unknown>,
  specs: string[],
  files: Record<string, string> = {},
): Promise<boolean> {
  writeFileSync(join(at, 'package.json'), JSON.stringify({ private: true, ...manifest }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(at, name), text);
  return npm([...FLAGS, ...specs], at, 240_000).then(
    () => true,
    (e: Error & { stderr?: string }) => {
      if (OFFLINE.test(`${e.stderr ?? ''}\n${e.message ?? ''}`)) return false;
      throw e;
    },
  );
}

function startLightInstalls(): void {
  const ours = cachedProject(CACHE, dir, 'package-only', installKey(['package-only', integrity, ...FLAGS]), (at) =>
    install(at, { name: 'package-only' }, [tarball]),
  );
  const msw = cachedProject(CACHE, dir, 'msw-only', installKey(['msw-only', ...FLAGS]), (at) =>
    install(at, { name: 'msw-only' }, ['msw@^2']),
  );
  lightInstalls = Promise.all([ours, msw]).then(
    ([o, m]) => o !== false && m !== false && { ours: o.dir, msw: m.dir },
    (e: Error) => e,
  );
}

const CONSUMER = `
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { createSandbox } from 'health-sandbox';
import { createMswHandlers } from 'health-sandbox/msw';

const require = createRequire(import.meta.url);
const sandbox = createSandbox({ seed: 5, clock: 'manual' });
const handlers = createMswHandlers(sandbox, { baseUrl: 'https://api.sandbox.tryvital.io' });
// Handlers made by the package are instances of this project's msw (one copy).
assert.ok(handlers.every((h) => h instanceof http.get('/x', () => undefined).constructor));
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: 'error' });
const key = sandbox.credentials().teams[0].api_keys.sandbox;
const post = (body) => fetch('https://api.sandbox.tryvital.io/v2/user', { method: 'POST', headers: { 'x-vital-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const created = await post({ client_user_id: 'consumer-1' });
const again = await post({ client_user_id: 'consumer-1' });
const anonymous = await fetch('https://api.sandbox.tryvital.io/v2/user');
server.close();
let expressError = null;
try { await import('health-sandbox/express'); } catch (e) { expressError = String(e.code ?? e); }
console.log(JSON.stringify({
  statuses: [created.status, again.status, anonymous.status],
  user: (await created.json()).client_user_id,
  msw: require('msw/package.json').version,
  expressError,
}));
`;

/**
 * Two tests a consumer writes against the installed package, run with node's own test runner
 * (no runner to install): an in-process empty world through `health-sandbox/msw`, and a server
 * from `startSandbox` steered over HTTP with `connectSandbox` (issue 17's done-when).
 */
const CONSUMER_MSW_TEST = `
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { setupServer } from 'msw/node';
import { createSandbox } from 'health-sandbox';
import { createMswHandlers } from 'health-sandbox/msw';

const BASE = 'https://api.sandbox.tryvital.io';
const sandbox = createSandbox({ world: 'empty' });
const server = setupServer(...createMswHandlers(sandbox, { baseUrl: BASE }));
server.listen({ onUnhandledRequest: 'error' });
after(() => { server.close(); sandbox.close(); });

test('an empty world: teams and keys, no users; a created user is listed; reset keeps it empty', async () => {
  const key = sandbox.credentials().teams[0].api_keys.sandbox;
  const headers = { 'x-vital-api-key': key, 'content-type': 'application/json' };
  const total = async () => (await (await fetch(BASE + '/v2/user', { headers })).json()).total;
  assert.equal(await total(), 0);
  const created = await fetch(BASE + '/v2/user', { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'packed-1' }) });
  assert.equal(created.status, 200);
  assert.equal(await total(), 1);
  sandbox.reset();
  assert.equal(sandbox.credentials().teams[0].api_keys.sandbox, key);
  assert.equal(await total(), 0);
});
`;

const CONSUMER_TESTING_TEST = `
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSandbox, startSandbox } from 'health-sandbox/testing';

test('startSandbox serves on 127.0.0.1; connectSandbox steers it over HTTP', async (t) => {
  const started = await startSandbox({ world: 'empty' });
  t.after(() => started.close());
  assert.match(started.url, /^http:\\/\\/127\\.0\\.0\\.1:\\d+$/);
  const remote = connectSandbox(started.url);
  const creds = await remote.credentials();
  const headers = { 'x-vital-api-key': creds.teams[0].api_keys.sandbox, 'content-type': 'application/json' };
  const user = await (await fetch(started.url + '/v2/user', { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'remote-1' }) })).json();
  const linked = await fetch(started.url + '/v2/link/connect/demo', { method: 'POST', headers, body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }) });
  assert.equal(linked.status, 200);
  const events = await remote.events({ event_type: 'provider.connection.created' });
  assert.equal(events.length, 1);
  assert.equal(events[0].envelope.user_id, user.user_id);
  const before = Date.parse((await remote.clock()).now);
  await remote.advance('2h');
  assert.equal(Date.parse((await remote.clock()).now) - before, 2 * 3600 * 1000);
  // The same control in process.
  assert.equal((await started.credentials()).org_id, creds.org_id);
});
`;

/** A TypeScript consumer of the express entry: the app is typed (were it any, the ts-expect-error directive would be unused and fail). */
const TYPED = `
import type { Express } from 'express';
import { createSandbox, type Sandbox } from 'health-sandbox';
import { createExpressApp } from 'health-sandbox/express';

const sandbox: Sandbox = createSandbox({ seed: 1 });
export const app: Express = createExpressApp(sandbox, { managementPath: '/management' });
// @ts-expect-error createExpressApp answers an express app, not any
app.notAnExpressMethod();
`;

it("installs from the packed tarball beside the consumer's own msw and works with it", async (ctx) => {
  if (!existsSync(join(root, 'dist/index.js'))) await npm(['run', 'build', '--silent'], root, 240_000);
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root, 120_000)) as Array<{
    filename: string;
    integrity: string;
    files: Array<{ path: string }>;
  }>;
  const files = packed[0]?.files.map((f) => f.path) ?? [];
  tarball = join(dir, packed[0]?.filename ?? '');
  integrity = packed[0]?.integrity ?? '';
  expect(integrity).toMatch(/^sha512-/);
  startLightInstalls();
  // A quiet install: no script of the package runs in a consumer's install (dist is built by prepack).
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(Object.keys(manifest.scripts).filter((k) => INSTALL_SCRIPTS.includes(k))).toEqual([]);
  for (const f of [
    'LICENSE',
    'README.md',
    'package.json',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/msw.js',
    'dist/msw.d.ts',
    'dist/express.js',
    'dist/express.d.ts',
    'dist/node.js',
    'dist/node.d.ts',
    'dist/testing.js',
    'dist/testing.d.ts',
    'dist/cli.js',
    // The CLI's one CommonJS file and its V8 code cache (scripts/build.mjs, scripts/cli-boot.mjs).
    'dist/cli-main.cjs',
    'dist/cli-main.cjs.cache',
  ])
    expect(files).toContain(f);
  // The JavaScript is the esbuild bundle (scripts/build.mjs): the entries and their shared chunks
  // at the top of dist/, no per-file output of tsc (which writes the declarations only).
  const js = files.filter((f) => f.endsWith('.js'));
  expect(js.filter((f) => !/^dist\/[^/]+\.js$/.test(f))).toEqual([]);
  expect(js.some((f) => /^dist\/chunk-[A-Z0-9]+\.js$/.test(f))).toBe(true);
  expect(
    files.filter(
      (f) => !/^(dist\/|docs\/simulated\/|docs\/(testing|reference)\.md$|scenarios\/|LICENSE$|README\.md$|package\.json$)/.test(f),
    ),
  ).toEqual([]);
  // The build's incremental state stays out of the package.
  expect(files.filter((f) => f.endsWith('.tsbuildinfo'))).toEqual([]);

  // The consumer's scripts are written with its install (they are part of what a kept install is kept for).
  const scripts = { 'consumer.mjs': CONSUMER, 'msw.test.mjs': CONSUMER_MSW_TEST, 'testing.test.mjs': CONSUMER_TESTING_TEST };
  const key = installKey(['consumer', integrity, ...FLAGS, CONSUMER_MSW, ...Object.values(scripts)]);
  const installed = await cachedProject(CACHE, dir, 'consumer', key, (at) =>
    install(at, { name: 'consumer', type: 'module' }, [`msw@${CONSUMER_MSW}`, tarball], scripts),
  );
  if (!installed) {
    console.warn('pack-and-install test skipped: the npm registry cannot be reached (npm install failed offline)');
    return ctx.skip();
  }
  const consumer = installed.dir;

  // No install-time script from the package or anything it brings (msw is the consumer's own).
  expect(withInstallScripts(consumer).filter((p) => p !== 'node_modules/msw')).toEqual([]);
  // One copy of msw in the tree: the consumer's, not a second one under the package.
  const versions = installedVersions(join(consumer, 'node_modules'), 'msw');
  expect(versions).toHaveLength(1);
  expect(versions[0]).toMatch(/^2\.12\./);
  expect(existsSync(join(consumer, 'node_modules/health-sandbox/node_modules/msw'))).toBe(false);
  expect(existsSync(join(consumer, 'node_modules/express'))).toBe(false);
  expect(JSON.parse(readFileSync(join(consumer, 'node_modules/health-sandbox/package.json'), 'utf8')).peerDependencies).toMatchObject({
    msw: '^2',
    express: '^5',
  });

  // The consumer script and the consumer's own tests (the msw entry with an empty world, and
  // startSandbox/connectSandbox, with node's own runner) run side by side, both without express;
  // beside them, a TypeScript consumer of the express entry in a sibling project that holds the
  // same installed packages plus express and its types (linked from this repository's
  // node_modules: express 5, @types/express 5, @types/node 20).
  const typedProject = join(dir, 'typed');
  mirrorInstall(join(consumer, 'node_modules'), join(typedProject, 'node_modules'));
  for (const pkg of ['express', '@types/express', '@types/node']) {
    mkdirSync(join(typedProject, 'node_modules', pkg, '..'), { recursive: true });
    symlinkSync(join(root, 'node_modules', pkg), join(typedProject, 'node_modules', pkg), 'dir');
  }
  writeFileSync(join(typedProject, 'package.json'), JSON.stringify({ name: 'typed', private: true, type: 'module' }));
  writeFileSync(join(typedProject, 'typed.ts'), TYPED);
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const [{ stdout }, tests, typed] = await Promise.all([
    run(process.execPath, ['consumer.mjs'], { cwd: consumer, timeout: 60_000 }),
    run(process.execPath, ['--test', '--test-reporter=tap', 'msw.test.mjs', 'testing.test.mjs'], { cwd: consumer, timeout: 120_000 }).then(
      (r) => r.stdout,
      (e: { stdout?: string; stderr?: string }) => `FAILED\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    ),
    // A server's project: node's types and the language's library, no DOM (a third of what tsc would read).
    run(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        ...['--module', 'nodenext', '--target', 'es2022', '--lib', 'es2022', '--types', 'node'],
        '--skipLibCheck',
        'typed.ts',
      ],
      {
        cwd: typedProject,
        timeout: 120_000,
      },
    ).then(
      () => 'ok',
      (e: { stdout?: string }) => e.stdout ?? 'tsc failed',
    ),
  ]);
  const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
    statuses: number[];
    user: string;
    msw: string;
    expressError: string | null;
  };
  expect(result.statuses).toEqual([200, 400, 401]);
  expect(result.user).toBe('consumer-1');
  expect(result.msw).toMatch(/^2\.12\./);
  // express is an optional peer: the express entry needs it installed, the others do not.
  expect(result.expressError).toBe('ERR_MODULE_NOT_FOUND');
  expect(tests).not.toContain('FAILED');
  expect(tests).toMatch(/^# pass 2$/m);
  expect(tests).toMatch(/^# fail 0$/m);
  // The express entry is typed for a TypeScript consumer.
  expect(typed).toBe('ok');
}, 600_000);

/**
 * A light install (issue 32): a project that installs only the packed tarball (peers aside) gets
 * a node_modules no larger than one that installs only msw (measured side by side, printed; the
 * README reports the numbers), and nothing in it has an install script.
 */
it('installs lighter than msw alone, with no install scripts', async (ctx) => {
  const installed = await lightInstalls;
  if (installed === undefined) return ctx.skip(); // the tarball was not packed: the first test says why
  if (installed instanceof Error) throw installed;
  if (!installed) {
    console.warn('install-size test skipped: the npm registry cannot be reached');
    return ctx.skip();
  }
  const { ours, msw } = installed;
  const [oursSize, mswSize] = [treeSize(join(ours, 'node_modules')), treeSize(join(msw, 'node_modules'))];
  console.log(`node_modules: health-sandbox alone ${(oursSize / 1e6).toFixed(1)} MB, msw alone ${(mswSize / 1e6).toFixed(1)} MB`);
  expect(oursSize).toBeLessThanOrEqual(mswSize);
  expect(withInstallScripts(ours)).toEqual([]);
  expect(
    readdirSync(join(ours, 'node_modules'))
      .filter((n) => !n.startsWith('.'))
      .sort(),
  ).toEqual(['@noble', 'health-sandbox', 'yaml', 'zod']);
}, 600_000);
