/**
 * `npm run bench -- --peers` (or `tsx scripts/bench-peers.ts`): the sandbox against the mock
 * servers a user could pick instead, serving the real OpenAPI document, on the same requests,
 * in one run. Prism and Mockoon CLI are installed into a cache folder outside the repository
 * (never a dependency). Reports requests per second and the sandbox's ratio to each peer.
 * Without `../shared` or without the registry it says so and skips. Traffic: 127.0.0.1 only,
 * a fixed number of requests per case.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExpressApp } from '../src/adapters/express.js';
import { createSandbox } from '../src/sandbox.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const doc = resolve(root, '../shared/reference/openapi/data-api.openapi.json');
const cache = join(homedir(), '.cache', 'health-sandbox-peers');
const PEERS = { prism: '@stoplight/prism-cli@5.14.2', mockoon: '@mockoon/cli@9' } as const;
const REQUESTS = process.argv.includes('--quick') ? 500 : 3000;
const CONCURRENCY = 16;

function install(): boolean {
  if (existsSync(join(cache, 'node_modules/.bin/prism')) && existsSync(join(cache, 'node_modules/.bin/mockoon-cli'))) return true;
  mkdirSync(cache, { recursive: true });
  const res = spawnSync('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', '--loglevel=error', PEERS.prism, PEERS.mockoon], {
    stdio: 'inherit',
    timeout: 600_000,
  });
  return res.status === 0;
}

function waitForPort(child: ChildProcess, port: number, path: string, headers: Record<string, string>): Promise<void> {
  return new Promise((done, fail) => {
    let tries = 0;
    const poll = () => {
      if (++tries > 120) return fail(new Error(`peer on port ${port} did not start`));
      const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        done();
      });
      req.on('error', () => setTimeout(poll, 500));
      req.end();
    };
    child.on('exit', (code) => fail(new Error(`peer exited with ${code}`)));
    poll();
  });
}

/** Requests per second for `REQUESTS` calls with `CONCURRENCY` keep-alive connections. */
async function rate(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const one = () =>
    new Promise<number>((done, fail) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      });
      req.on('error', fail);
      req.end(body);
    });
  for (let i = 0; i < 50; i++) await one();
  let sent = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return REQUESTS / seconds;
}

export async function benchPeers(): Promise<void> {
  if (!existsSync(doc)) {
    console.log(`peers: ${doc} is absent; skipped.`);
    return;
  }
  if (!install()) {
    console.log('peers: could not install Prism and Mockoon CLI from the registry; skipped.');
    return;
  }
  const sandbox = createSandbox({ seed: 1, logger: () => undefined });
  const server = createExpressApp(sandbox).listen(0, '127.0.0.1');
  await new Promise<void>((done) => server.once('listening', () => done()));
  const ours = (server.address() as { port: number }).port;
  const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  const users = JSON.parse(
    new TextDecoder().decode(
      (
        await sandbox.dispatch({
          method: 'GET',
          surface: 'data',
          path: '/v2/user',
          query: { limit: ['1'] },
          headers: { 'x-service-api-key': key },
          rawBody: new Uint8Array(),
        })
      ).body,
    ),
  ) as { users: Array<{ user_id: string }> };
  const userId = users.users[0]?.user_id ?? '';
  const headers = { 'x-vital-api-key': key, 'content-type': 'application/json', accept: 'application/json' };
  const peers: Array<{ name: string; port: number; child: ChildProcess }> = [];
  const bin = (name: string) => join(cache, 'node_modules/.bin', name);
  const start = (name: string, port: number, args: string[]) => {
    const child = spawn(bin(name === 'prism' ? 'prism' : 'mockoon-cli'), args, { stdio: 'ignore' });
    peers.push({ name, port, child });
    return waitForPort(child, port, `/v2/user/${userId}`, headers);
  };
  try {
    await start('prism', 47301, ['mock', '-h', '127.0.0.1', '-p', '47301', doc]);
    await start('mockoon', 47302, ['start', '--data', doc, '--port', '47302', '--hostname', '127.0.0.1']);
    const cases = [
      { name: 'GET /v2/user/:id', method: 'GET', path: `/v2/user/${userId}`, body: undefined as string | undefined },
      { name: 'POST /v2/user', method: 'POST', path: '/v2/user', body: undefined as string | undefined },
    ];
    console.log('| case | sandbox req/s | peer | peer req/s | sandbox / peer |');
    console.log('|---|---|---|---|---|');
    for (const c of cases) {
      let n = 0;
      const bodyFor = () => (c.method === 'POST' ? JSON.stringify({ client_user_id: `peer-bench-${n++}` }) : undefined);
      // One body per server: the first POST creates, the rest answer the duplicate-user 400
      // (the real service's answer to a repeated client_user_id); peers answer their example.
      const mine = await rate(ours, c.method, c.path, headers, bodyFor());
      for (const p of peers) {
        const theirs = await rate(p.port, c.method, c.path, headers, bodyFor());
        console.log(`| ${c.name} | ${mine.toFixed(0)} | ${p.name} | ${theirs.toFixed(0)} | ${(mine / theirs).toFixed(1)}x |`);
      }
    }
  } catch (error) {
    console.log(`peers: ${error instanceof Error ? error.message : String(error)}; skipped.`);
  } finally {
    for (const p of peers) p.child.kill('SIGTERM');
    server.close();
    sandbox.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await benchPeers();
