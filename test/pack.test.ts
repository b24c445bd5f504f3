/**
 * The published package as a consumer gets it: `npm pack`, then install the tarball into a
 * temporary project that pins its own msw to another 2.x minor, and run a consumer script
 * there: one copy of msw (ours is a peer), the handlers match that copy's setupServer, the main
 * and msw entries load without express, the express entry asks for express. Uses the compiled
 * dist/ (`npm test` builds it first) and the npm registry; skips with one line if the registry
 * cannot be reached. Bounded: every npm call has a time limit.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CONSUMER_MSW = '~2.12.0';

async function npm(args: string[], cwd: string, timeout: number): Promise<string> {
  const { stdout } = await run('npm', args, { cwd, timeout, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });
  return stdout;
}

const registryUp = await npm(['ping'], root, 20_000).then(() => true, () => false);
if (!registryUp) console.warn('pack-and-install test skipped: the npm registry cannot be reached (npm ping failed)');

const dir = mkdtempSync(join(tmpdir(), 'hs-pack-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

it.skipIf(!registryUp)('installs from the packed tarball beside the consumer\'s own msw and works with it', async () => {
  if (!existsSync(join(root, 'dist/index.js'))) await npm(['run', 'build', '--silent'], root, 240_000);
  const packed = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root, 120_000)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed[0]?.files.map((f) => f.path) ?? [];
  for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/msw.js', 'dist/msw.d.ts', 'dist/express.js', 'dist/express.d.ts', 'dist/cli.js']) expect(files).toContain(f);
  expect(files.filter((f) => !/^(dist\/|docs\/simulated\/|docs\/testing\.md$|scenarios\/|LICENSE$|README\.md$|package\.json$)/.test(f))).toEqual([]);

  const consumer = join(dir, 'consumer');
  await run('mkdir', ['-p', consumer]);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(join(consumer, 'consumer.mjs'), CONSUMER);
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `msw@${CONSUMER_MSW}`, join(dir, packed[0]?.filename ?? '')], consumer, 240_000);

  // One copy of msw in the tree: the consumer's, not a second one under the package.
  type Tree = { version?: string; dependencies?: Record<string, Tree> };
  const tree = JSON.parse(await npm(['ls', 'msw', '--all', '--json'], consumer, 60_000)) as Tree;
  const versions = new Set<string>();
  const walk = (t: Tree): void => {
    for (const [name, sub] of Object.entries(t.dependencies ?? {})) {
      if (name === 'msw' && sub.version) versions.add(sub.version);
      walk(sub);
    }
  };
  walk(tree);
  expect(versions.size).toBe(1);
  expect([...versions][0]).toMatch(/^2\.12\./);
  expect(existsSync(join(consumer, 'node_modules/health-sandbox/node_modules/msw'))).toBe(false);
  expect(existsSync(join(consumer, 'node_modules/express'))).toBe(false);

  const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: consumer, timeout: 60_000 });
  const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { statuses: number[]; user: string; msw: string; expressError: string | null };
  expect(result.statuses).toEqual([200, 400, 401]);
  expect(result.user).toBe('consumer-1');
  expect(result.msw).toMatch(/^2\.12\./);
  // express is an optional peer: the express entry needs it installed, the others do not.
  expect(result.expressError).toBe('ERR_MODULE_NOT_FOUND');
  expect(JSON.parse(readFileSync(join(consumer, 'node_modules/health-sandbox/package.json'), 'utf8')).peerDependencies).toMatchObject({ msw: '^2', express: '^5' });

  // The consumer's own tests: the msw entry with an empty world, and startSandbox/connectSandbox.
  writeFileSync(join(consumer, 'msw.test.mjs'), CONSUMER_MSW_TEST);
  writeFileSync(join(consumer, 'testing.test.mjs'), CONSUMER_TESTING_TEST);
  const tests = await run(process.execPath, ['--test', '--test-reporter=tap', 'msw.test.mjs', 'testing.test.mjs'], { cwd: consumer, timeout: 120_000 }).then(
    (r) => r.stdout,
    (e: { stdout?: string; stderr?: string }) => `FAILED\n${e.stdout ?? ''}\n${e.stderr ?? ''}`,
  );
  expect(tests).not.toContain('FAILED');
  expect(tests).toMatch(/^# pass 2$/m);
  expect(tests).toMatch(/^# fail 0$/m);

  // With express and its types installed, the express entry is typed for a TypeScript consumer.
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', 'express@^5', '@types/express@^5', '@types/node@^20'], consumer, 240_000);
  writeFileSync(join(consumer, 'typed.ts'), TYPED);
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const typed = await run(process.execPath, [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2022', '--skipLibCheck', 'typed.ts'], { cwd: consumer, timeout: 120_000 }).then(
    () => 'ok',
    (e: { stdout?: string }) => e.stdout ?? 'tsc failed',
  );
  expect(typed).toBe('ok');
}, 600_000);
