/**
 * HTTP bench (`npm run bench -- --http`): `GET /v2/user/:id` through the node:http adapter (the
 * CLI's server) and the express adapter, against a bare node:http server answering the same JSON
 * from a Map, all in this process; load comes from a second process (scripts/bench-load.ts,
 * keep-alive, 127.0.0.1 only). Rounds interleave the servers; the best of rounds is kept.
 *
 * Two figures per server: requests per second (what the load generator got), and server CPU time
 * per request (this process's user + system time over the requests it answered, warm-up
 * included). On a shared machine the first swings with the other tenants' load, because the load
 * generator and the server compete with them for the cores; the second counts only the work the
 * server did, so its ratio (bare CPU per request / adapter CPU per request) is the capacity ratio
 * the target is about, and it holds steady from run to run.
 *
 * `--before <dir>`: also serves through the node:http adapter of another checkout's sources
 * (`<dir>/src`, e.g. `git archive` of the commit before a change), in the same rounds, so a change
 * is measured against what it replaced in one run.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';
import { createSandbox } from '../src/index.js';
import { answerHeadErrorsWithJson, createExpressApp } from '../src/express.js';
import { createNodeServer } from '../src/node.js';
import { usersOf } from '../src/state/users/users.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

function listen(server: Server): Promise<number> {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
}

function beforeDir(): string | undefined {
  const at = process.argv.indexOf('--before');
  return at > 0 ? resolve(process.argv[at + 1] ?? '.') : undefined;
}

/** The node:http adapter of another checkout, over its own sandbox of the same world (same seed, so the same ids and key). */
async function beforeServer(dir: string): Promise<Server> {
  const core = (await import(pathToFileURL(join(dir, 'src/index.ts')).href)) as typeof import('../src/index.js');
  const node = (await import(pathToFileURL(join(dir, 'src/node.ts')).href)) as typeof import('../src/node.js');
  return node.createNodeServer(core.createSandbox({ seed: 1, users: 1000, logger: () => undefined }));
}

export async function benchHttp(quick: boolean): Promise<void> {
  const sandbox = createSandbox({ seed: 1, users: 1000, logger: () => undefined });
  const team = [...sandbox.world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const users = usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).all().slice(0, 50);
  const apiKey = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  // The bare server answers the same bodies from a Map keyed by path.
  const bodies = new Map<string, Buffer>();
  for (const u of users) {
    const res = await sandbox.dispatch({
      method: 'GET',
      surface: 'data',
      path: `/v2/user/${u.user_id}`,
      query: {},
      headers: { 'x-service-api-key': apiKey },
      rawBody: new Uint8Array(0),
    });
    bodies.set(`/v2/user/${u.user_id}`, Buffer.from(res.body));
  }
  const bare = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body || req.headers['x-service-api-key'] !== apiKey) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
  });
  // The express baseline: an express 5 app with the same route, answering from the same Map.
  const bareExpressApp = express();
  bareExpressApp.get('/v2/user/:id', (req, res) => {
    const body = bodies.get(req.path);
    if (!body || req.headers['x-service-api-key'] !== apiKey) {
      res.status(404).json({ detail: 'Not Found' });
      return;
    }
    res.status(200).type('application/json').send(body);
  });
  const servers: Record<string, Server> = {
    'bare node:http (Map)': bare,
    'bare express (Map)': createServer(bareExpressApp),
    'node:http adapter': createNodeServer(sandbox),
    'express adapter': answerHeadErrorsWithJson(createServer(createExpressApp(sandbox))),
  };
  const before = beforeDir();
  if (before !== undefined) servers['node:http adapter (before)'] = await beforeServer(before);
  const ports: Record<string, number> = {};
  for (const [name, server] of Object.entries(servers)) ports[name] = await listen(server);
  const seconds = quick ? 1 : 3;
  const rounds = quick ? 1 : 3;
  const best: Record<string, number> = {};
  const cpuPerReq: Record<string, number> = {};
  for (let round = 0; round < rounds; round++) {
    for (const name of Object.keys(servers)) {
      const urls = users.map((u) => `http://127.0.0.1:${ports[name]}/v2/user/${u.user_id}`).join(',');
      const cpu = process.cpuUsage();
      const { stdout: out } = await promisify(execFile)(
        process.execPath,
        [
          tsxCli,
          resolve(here, 'bench-load.ts'),
          '--urls',
          urls,
          '--seconds',
          String(seconds),
          '--connections',
          '32',
          '--headers',
          JSON.stringify({ 'x-service-api-key': apiKey }),
        ],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      const used = process.cpuUsage(cpu);
      const { rps, errors, total } = JSON.parse(out) as { rps: number; errors: number; total: number };
      if (errors > 0) throw new Error(`${name}: ${errors} errors`);
      best[name] = Math.max(best[name] ?? 0, rps);
      cpuPerReq[name] = Math.min(cpuPerReq[name] ?? Infinity, (used.user + used.system) / total);
    }
  }
  const baseline = best['bare node:http (Map)'] ?? 1;
  console.log(`\nGET /v2/user/:id over HTTP (keep-alive, 32 connections, load from a second process, best of ${rounds} x ${seconds} s)`);
  const cpuBase = cpuPerReq['bare node:http (Map)'] ?? 1;
  console.log(
    `${'server'.padEnd(24)} ${'req/s'.padStart(10)} ${'x bare node:http'.padStart(18)} ${'server CPU us/req'.padStart(18)} ${'capacity x bare'.padStart(16)}`,
  );
  for (const [name, rps] of Object.entries(best)) {
    const cpu = cpuPerReq[name] ?? NaN;
    console.log(
      `${name.padEnd(24)} ${rps.toFixed(0).padStart(10)} ${(rps / baseline).toFixed(2).padStart(18)} ${cpu.toFixed(0).padStart(18)} ${(cpuBase / cpu).toFixed(2).padStart(16)}`,
    );
  }
  const expressBase = best['bare express (Map)'] ?? NaN;
  const expressCpu = cpuPerReq['bare express (Map)'] ?? NaN;
  console.log(
    `express adapter x bare express: ${((best['express adapter'] ?? NaN) / expressBase).toFixed(2)} req/s, ${(expressCpu / (cpuPerReq['express adapter'] ?? NaN)).toFixed(2)} capacity`,
  );
  console.log(
    "  (capacity x bare = bare server CPU per request / this server CPU per request: the share of the bare server's throughput it reaches when the CPU is the limit)",
  );
  for (const server of Object.values(servers)) {
    server.closeAllConnections();
    server.close();
  }
  sandbox.close();
}
