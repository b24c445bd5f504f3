/**
 * One server of the HTTP bench (scripts/bench-http.ts), alone in its process so its CPU time is
 * its own: `bare-node` (node:http answering from a Map), `bare-express` (an express 5 app with the
 * same route, from the same Map), `node` (the node:http adapter), `express` (the express adapter).
 * `--src <dir>`: the sandbox and adapters of another checkout (`<dir>/src`). Listens on
 * 127.0.0.1, prints `{ urls, headers }` as one JSON line, then serves until killed.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import express from 'express';

const kind = process.argv[2] ?? 'node';
const at = process.argv.indexOf('--src');
const src = at > 0 ? resolve(process.argv[at + 1] ?? '.', 'src') : fileURLToPath(new URL('../src', import.meta.url));
const load = (file: string) => import(pathToFileURL(join(src, file)).href);
const core = (await load('index.ts')) as typeof import('../src/index.js');
const users = (await load('state/users/users.ts')) as typeof import('../src/state/users/users.js');

const sandbox = core.createSandbox({ seed: 1, users: 1000, logger: () => undefined });
const team = [...sandbox.world.tenancy.teams.values()][0];
if (!team) throw new Error('no team');
const picked = users.usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).all().slice(0, 50);
const apiKey = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
const bodies = new Map<string, Buffer>();
for (const u of picked) {
  const path = `/v2/user/${u.user_id}`;
  const res = await sandbox.dispatch({
    method: 'GET',
    surface: 'data',
    path,
    query: {},
    headers: { 'x-service-api-key': apiKey },
    rawBody: new Uint8Array(0),
  });
  bodies.set(path, Buffer.from(res.body));
}

const bareNode: RequestListener = (req, res) => {
  const body = bodies.get(req.url ?? '');
  if (!body || req.headers['x-service-api-key'] !== apiKey) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
};

function bareExpress(): RequestListener {
  const app = express();
  app.get('/v2/user/:id', (req, res) => {
    const body = bodies.get(req.path);
    if (!body || req.headers['x-service-api-key'] !== apiKey) {
      res.status(404).json({ detail: 'Not Found' });
      return;
    }
    res.status(200).type('application/json').send(body);
  });
  return app as unknown as RequestListener;
}

async function server() {
  if (kind === 'bare-node') return createServer(bareNode);
  if (kind === 'bare-express') return createServer(bareExpress());
  if (kind === 'express') {
    const e = (await load('express.ts')) as typeof import('../src/express.js');
    return e.answerHeadErrorsWithJson(createServer(e.createExpressApp(sandbox)));
  }
  const n = (await load('node.ts')) as typeof import('../src/node.js');
  return n.createNodeServer(sandbox);
}

const s = await server();
s.listen(0, '127.0.0.1', () => {
  const { port } = s.address() as AddressInfo;
  const urls = [...bodies.keys()].map((path) => `http://127.0.0.1:${port}${path}`);
  process.stdout.write(`${JSON.stringify({ urls, headers: { 'x-service-api-key': apiKey } })}\n`);
});
