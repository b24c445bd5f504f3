/**
 * Shutdown of the CLI server (issue 11): the first SIGINT/SIGTERM stops accepting, lets requests
 * in flight finish, aborts webhook deliveries in flight and exits 0; a second signal exits at
 * once. Every wait is on an event (a stdout/stderr line, a request reaching the receiver, a
 * response, the exit), never on a timer. Traffic to 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// One process (no tsx/cli wrapper relaying signals to a child): the signal reaches the CLI itself.

interface Started {
  proc: ChildProcess;
  url: string;
  org: string;
  mgmtKey: string;
  team: string;
  apiKey: string;
  exited: Promise<number | null>;
  stderrLine: (pattern: RegExp) => Promise<string>;
}

const children: ChildProcess[] = [];
const servers: Server[] = [];
const agents: Agent[] = [];
afterEach(() => {
  for (const a of agents.splice(0)) a.destroy();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const s of servers.splice(0)) s.closeAllConnections(), s.close();
});

async function startCli(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const proc = spawn(process.execPath, cliArgs(['--port', '0', '--json', ...args]), {
    cwd: root,
    env: { ...process.env, HEALTH_SANDBOX_PORT: '', ...env },
  });
  children.push(proc);
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const errLines: string[] = [];
  const errWaiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  createInterface({ input: proc.stderr! }).on('line', (line) => {
    errLines.push(line);
    for (const w of [...errWaiters]) if (w.pattern.test(line)) errWaiters.splice(errWaiters.indexOf(w), 1), w.resolve(line);
  });
  const stderrLine = (pattern: RegExp) =>
    new Promise<string>((r) => {
      const seen = errLines.find((l) => pattern.test(l));
      if (seen !== undefined) r(seen);
      else errWaiters.push({ pattern, resolve: r });
    });
  const first = new Promise<string>((r, reject) => {
    createInterface({ input: proc.stdout! }).once('line', r);
    proc.once('exit', () => reject(new Error(`CLI exited at start: ${errLines.join('\n')}`)));
  });
  const line = JSON.parse(await first) as {
    url: string;
    org_id: string;
    management_key: string;
    teams: Array<{ team_id: string; api_keys: { sandbox: string } }>;
  };
  const team = line.teams[0];
  if (!team) throw new Error('no team');
  return {
    proc,
    url: line.url,
    org: line.org_id,
    mgmtKey: line.management_key,
    team: team.team_id,
    apiKey: team.api_keys.sandbox,
    exited,
    stderrLine,
  };
}

/** A 127.0.0.1 receiver that never answers; resolves `first` with the first request it gets. */
async function hangingReceiver(): Promise<{ url: string; first: Promise<IncomingMessage> }> {
  let got: (req: IncomingMessage) => void = () => undefined;
  const first = new Promise<IncomingMessage>((r) => (got = r));
  const server = createServer((req) => got(req));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, first };
}

async function call(cli: Started, method: string, path: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${cli.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** POSTs and resolves with the answer, or with the error if the connection is cut. */
function post(
  cli: Started,
  path: string,
  body: string,
  agent?: Agent,
): Promise<{ status: number; text: string; connection: string | undefined } | Error> {
  const url = new URL(cli.url);
  return new Promise((resolveAnswer) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        ...(agent ? { agent } : {}),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
      },
    );
    req.on('error', (error) => resolveAnswer(error));
    req.end(body);
  });
}

describe('health-sandbox shutdown', () => {
  it('on SIGTERM aborts a delivery to a receiver that never answers: the advance waiting on it answers, and the process exits 0 by itself', {
    timeout: 30_000,
  }, async () => {
    const receiver = await hangingReceiver();
    // An attempt timeout far beyond the test's: only the abort can end this delivery in time. A
    // fallback grace (2 min) beyond the test's timeout (30 s): the process must exit on its own,
    // once the advance's keep-alive connection has carried its answer and closed.
    const cli = await startCli(['--clock', 'manual', '--world', 'empty', '--delivery-timeout', '300'], {
      HEALTH_SANDBOX_SHUTDOWN_GRACE_MS: '120000',
    });
    const user = await call(cli, 'POST', '/v2/user', { client_user_id: 'shutdown-1' }, { 'x-service-api-key': cli.apiKey });
    expect(user.status).toBe(200);
    const connect = await call(
      cli,
      'POST',
      '/v2/link/connect/demo',
      { user_id: user.body.user_id, provider: 'oura' },
      { 'x-service-api-key': cli.apiKey },
    );
    expect(connect.status).toBe(200);
    // The endpoint comes after the connection: its first delivery is caused by the advance below.
    const ep = await call(
      cli,
      'POST',
      `/management/v1/org/${cli.org}/team/${cli.team}/sandbox/webhook`,
      { url: receiver.url },
      { 'x-management-key': cli.mgmtKey },
    );
    expect(ep.status).toBe(200);
    // Keep-alive with no idle timeout (the global agent drops idle sockets after 5 s): the
    // connection stays open after the answer unless the server closes it.
    const agent = new Agent({ keepAlive: true });
    agents.push(agent);
    const advance = post(cli, '/_sandbox/clock/advance', '{"seconds": 86400}', agent);
    // A delivery reaches the receiver while the advance waits for it: both are in flight (the
    // advance over a keep-alive connection).
    const delivery = await receiver.first;
    const aborted = once(delivery.socket, 'close');
    cli.proc.kill('SIGTERM');
    const answer = await advance;
    expect(answer).not.toBeInstanceOf(Error);
    expect((answer as { status: number }).status).toBe(200);
    expect((answer as { connection: string | undefined }).connection).toBe('close');
    await aborted;
    expect(await cli.exited).toBe(0);
    await cli.stderrLine(/SIGTERM: stopping/);
  });

  it('a second signal exits at once (130 after SIGINT), cutting a request still in flight', async () => {
    // A grace longer than any test: the process can only leave through the second signal.
    const cli = await startCli(['--clock', 'manual', '--world', 'empty'], { HEALTH_SANDBOX_SHUTDOWN_GRACE_MS: '120000' });
    const url = new URL(cli.url);
    // Expect: 100-continue: the server answers 100 once the request is in its hands; the body never comes.
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: '/_sandbox/clock/advance',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': 20, expect: '100-continue' },
    });
    const cut = new Promise<unknown>((r) => req.on('error', r));
    req.flushHeaders();
    await once(req, 'continue');
    cli.proc.kill('SIGINT');
    await cli.stderrLine(/SIGINT: stopping/);
    expect(cli.proc.exitCode).toBeNull();
    cli.proc.kill('SIGINT');
    expect(await cli.exited).toBe(130);
    await cut;
  });
});
