/**
 * Issue 27 item 6, each with its test: a missing `Host` answers the engine's JSON 400, two `Host`
 * lines are refused, a control POST without a content type is refused like other non-JSON bodies,
 * the file sink follows no symbolic link inside the data directory, and IPv6 forms that carry an
 * IPv4 address are judged as that address.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { directorySink } from '../../src/adapters/file-sink.js';
import { CONTENT_MESSAGES } from '../../src/engine/dispatch.js';
import { answerHeadErrorsWithJson, createExpressApp } from '../../src/express.js';
import { createSandbox, GUARD_MESSAGES, type Sandbox } from '../../src/index.js';
import { createNodeServer } from '../../src/node.js';
import { destinationProblem, hostKind } from '../../src/state/webhooks/destinations.js';
import { WEBHOOKS_ERRORS } from '../../src/state/webhooks/errors.js';
import { startSandbox } from '../../src/testing.js';
import { ALL_ADAPTERS, createClient } from '../support/client.js';

const cleanup: Array<() => void> = [];
afterAll(() => {
  for (const f of cleanup.reverse()) f();
});

function fresh(): Sandbox {
  const s = createSandbox({ seed: 27, users: 1, usersElsewhere: 0, clock: 'manual', logger: () => undefined });
  cleanup.push(() => s.close());
  return s;
}

async function listen(server: Server): Promise<number> {
  cleanup.push(() => server.close());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** Sends a head exactly as written over a raw socket; answers status and body of the reply. */
function rawHttp(port: number, head: string): Promise<{ status: number; body: string; raw: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(head));
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      raw += c;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.\d (\d{3})/.exec(raw)?.[1] ?? 0);
      resolve({ status, body: raw.slice(raw.indexOf('\r\n\r\n') + 4), raw });
    });
  });
}

const SERVERS: Array<[string, (s: Sandbox) => Server]> = [
  ['node', (s) => createNodeServer(s)],
  ['express', (s) => answerHeadErrorsWithJson(createServer(createExpressApp(s)))],
];

describe.each(SERVERS)('[%s] Host lines', (_kind, make) => {
  it('an HTTP/1.1 request without Host answers the engine JSON 400; HTTP/1.0 without one is served', async () => {
    const port = await listen(make(fresh()));
    const missing = await rawHttp(port, 'GET /_sandbox/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(missing.status).toBe(400);
    expect(missing.raw.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(missing.body)).toEqual({ detail: GUARD_MESSAGES.missingHost });
    const old = await rawHttp(port, 'GET /_sandbox/health HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
    expect(JSON.parse(old.body)).toEqual({ status: 'ok' });
  });

  it('a loopback Host followed by a foreign one (or the reverse) does not pass the guard', async () => {
    const sandbox = fresh();
    const port = await listen(make(sandbox));
    const key = sandbox.credentials().management_key;
    for (const [first, second] of [
      [`127.0.0.1:${port}`, 'attacker.example'],
      ['attacker.example', `127.0.0.1:${port}`],
      [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
    ]) {
      const res = await rawHttp(
        port,
        `GET /_sandbox/credentials HTTP/1.1\r\nHost: ${first}\r\nhost: ${second}\r\nConnection: close\r\n\r\n`,
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ detail: GUARD_MESSAGES.duplicateHost });
      expect(res.body).not.toContain(key);
    }
    const one = await rawHttp(port, `GET /_sandbox/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(one.status).toBe(200);
  });
});

describe('a control POST without a content type', () => {
  const clients = ALL_ADAPTERS.map((a) => createClient(a, { seed: 27, users: 1, usersElsewhere: 0, clock: 'manual' }));
  afterAll(() => {
    for (const c of clients) c.sandbox.close();
  });
  const bytes = new TextEncoder().encode('{"seconds":3600}');

  it('is refused with 415 on every adapter and moves nothing', async () => {
    for (const [i, c] of clients.entries()) {
      const before = c.sandbox.world.clock.now();
      const res = await c.call('POST', '/_sandbox/clock/advance', { body: bytes });
      expect(res.status, ALL_ADAPTERS[i]).toBe(415);
      expect(res.body).toEqual({ detail: CONTENT_MESSAGES.controlNeedsJson });
      expect(c.sandbox.world.clock.now()).toBe(before);
      // Declared JSON it is accepted; a control POST with no body needs no type.
      expect((await c.call('POST', '/_sandbox/clock/advance', { body: '{"seconds":3600}' })).status).toBe(200);
      expect((await c.call('POST', '/_sandbox/reset')).status).toBe(200);
    }
  });

  it('while the data API still reads an untyped body as JSON (as FastAPI does)', async () => {
    for (const c of clients) {
      const res = await c.call('POST', '/v2/user', { body: new TextEncoder().encode('{"client_user_id":"untyped-1"}') });
      expect(res.status, c.adapter).toBe(200);
    }
  });

  it('the control client and a scenario file still send JSON', async () => {
    const scenarios = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios');
    const started = await startSandbox({ clock: 'manual', scenario: join(scenarios, 'empty-team.yaml') });
    cleanup.push(() => void started.close());
    const before = (await started.clock()).now;
    const after = await started.advance(60);
    expect(Date.parse(after.now) - Date.parse(before)).toBe(60_000);
  });
});

describe('the file sink (--data-dir) follows no symbolic link', () => {
  const base = mkdtempSync(join(tmpdir(), 'sink-'));
  cleanup.push(() => rmSync(base, { recursive: true, force: true }));
  const dir = join(base, 'data');
  const outside = join(base, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  writeFileSync(join(outside, 'target.txt'), 'precious\n');
  symlinkSync(join(outside, 'target.txt'), join(dir, 'link.ndjson'));
  symlinkSync(outside, join(dir, 'sub'));
  const sink = directorySink(dir);

  it('refuses a file that is a link and a directory that is a link, writing nothing outside', async () => {
    await expect(sink.append('link.ndjson', 'x\n')).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(sink.append('sub/new.ndjson', 'x\n')).rejects.toMatchObject({ code: 'ESYMLINK' });
    expect(readFileSync(join(outside, 'target.txt'), 'utf8')).toBe('precious\n');
    expect(existsSync(join(outside, 'new.ndjson'))).toBe(false);
  });

  it('still writes plain files and creates directories inside', async () => {
    await sink.append('a/b/out.ndjson', 'one\n');
    await sink.append('a/b/out.ndjson', 'two\n');
    expect(readFileSync(join(dir, 'a/b/out.ndjson'), 'utf8')).toBe('one\ntwo\n');
  });

  it('and the control plane reports the refusal instead of writing through the link', async () => {
    const c = createClient('fetch', { seed: 27, users: 1, usersElsewhere: 0, fileSink: sink });
    cleanup.push(() => c.sandbox.close());
    const res = await c.put('/_sandbox/pipelines/ndjson', { path: 'link.ndjson' });
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe(`${WEBHOOKS_ERRORS.ndjsonWriteFailed}: ELOOP`);
  });
});

describe('IPv6 forms carrying an IPv4 address are judged as that address', () => {
  it.each([
    ['[::127.0.0.1]', 'loopback'],
    ['[::7f00:1]', 'loopback'],
    ['[64:ff9b::127.0.0.1]', 'loopback'],
    ['[64:ff9b::7f00:1]', 'loopback'],
    ['[::ffff:127.0.0.1]', 'loopback'],
    ['[::ffff:0:127.0.0.1]', 'loopback'],
    ['[2002:7f00:1::]', 'loopback'],
    ['[64:ff9b::169.254.169.254]', 'link-local'],
    ['[::169.254.169.254]', 'link-local'],
    ['[64:ff9b::10.0.0.1]', 'private'],
    ['[::192.168.1.1]', 'private'],
    ['[64:ff9b:1::a]', 'private'],
    ['[::1]', 'loopback'],
    ['[::]', 'unspecified'],
    ['[64:ff9b::8.8.8.8]', 'public'],
    ['[2001:db8::1]', 'public'],
  ])('%s is %s', (host, kind) => {
    expect(hostKind(host)).toBe(kind);
    // As URL.hostname spells it (the compressed hex form).
    expect(hostKind(new URL(`http://${host}/`).hostname)).toBe(kind);
  });

  it('so a webhook to the sandbox itself or to metadata through them is refused', () => {
    const sandbox = fresh();
    sandbox.setUrls({ base: 'http://127.0.0.1:4250', management: 'http://127.0.0.1:4250/management' });
    for (const host of ['[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[::ffff:127.0.0.1]']) {
      expect(destinationProblem(sandbox.world, `http://${host}:4250/_sandbox/reset`), host).toBe(WEBHOOKS_ERRORS.urlSelf);
    }
    expect(destinationProblem(sandbox.world, 'http://[64:ff9b::169.254.169.254]/latest')).toBe(WEBHOOKS_ERRORS.urlLinkLocal);
  });
});
