/**
 * Issue 11, webhook findings: a clock advance that waits only for the work it caused (1);
 * destinations that cannot attack the sandbox (2); pipeline files only inside the data directory
 * (3, file part); one hanging receiver costs one timeout per retry step and delays no other
 * endpoint (6); custom header values masked in control-plane answers (7). Deliveries go through
 * an injected transport: no traffic leaves the process.
 */
import { callAt } from '../support/jobs.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createExpressApp } from '../../src/adapters/express.js';
import { directorySink } from '../../src/adapters/file-sink.js';
import { WEBHOOKS_ERRORS, WEBHOOKS_TEXTS } from '../../src/state/webhooks/errors.js';
import type { TransportRequest, TransportResponse, WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { attempts, createEndpoint, emit, flush, webhookBase, QUIET, walk } from '../support/webhooks-support.js';

const oas = oasValidator('management');
const T0 = Date.parse('2026-01-05T09:00:00.000Z');
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();
const dir = mkdtempSync(join(tmpdir(), 'hs-hardening-'));
const servers: Server[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A transport promise that never answers: it only ends when the attempt's signal aborts it. */
function hang(request: TransportRequest, onAbort: () => void): Promise<TransportResponse> {
  return new Promise((_, reject) => {
    request.signal.addEventListener('abort', () => {
      onAbort();
      reject(new Error('aborted'));
    });
  });
}

const ok: TransportResponse = { status: 200, headers: {}, body: 'ok' };
const eventType = (r: TransportRequest) => (JSON.parse(r.body) as { event_type: string }).event_type;

/** Yields to the event loop once (lets I/O callbacks and timers due now run); not a timed wait. */
const turn = () => new Promise<void>((r) => setImmediate(r));

function expect422(res: { status: number; body: any; text: string }, loc: Array<string | number>, msg: string) {
  expect(res.status, res.text).toBe(422);
  oas?.expectValid('HTTPValidationError', res.body);
  expect(res.body.detail[0]).toMatchObject({ loc, msg: `Value error, ${msg}` });
}

forEachAdapter('webhook hardening', (adapter) => {
  it('finding 1: an advance answers while requests made meanwhile still have deliveries in flight', async () => {
    const gateEarly = deferred();
    const gateLate = deferred();
    const earlyCalled = deferred();
    let lateCalled = false;
    let lateFinished = false;
    const transport: WebhookTransport = async (request) => {
      if (eventType(request) === 'daily.data.early.created') {
        earlyCalled.resolve();
        await gateEarly.promise;
        return ok;
      }
      lateCalled = true;
      await gateLate.promise;
      lateFinished = true;
      return ok;
    };
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 120 });
    // Two endpoints: attempts to one endpoint queue behind each other, to different ones they do not.
    const early = await createEndpoint(c, { url: 'http://127.0.0.1:9/early', filter_types: ['daily.data.early.created'] });
    const late = await createEndpoint(c, { url: 'http://127.0.0.1:9/late', filter_types: ['daily.data.late.created'] });
    // A job of the advance emits the event whose delivery the advance must wait for.
    callAt(c.sandbox.world.scheduler, T0 + 10_000, 'test: early event', () => void emit(c, 'daily.data.early.created'));
    const advanced = c.advance(3600);
    try {
      await earlyCalled.promise;
      await turn();
      // Meanwhile: a request is served, and another event starts a delivery that never answers yet.
      expect((await c.get('/_sandbox/clock')).status).toBe(200);
      emit(c, 'daily.data.late.created');
      await turn();
      expect(lateCalled).toBe(true);
      gateEarly.resolve();
      const res = await advanced;
      expect(res.status).toBe(200);
      expect(res.body.now).toBe(iso(3600));
      // The advance did not wait for the late delivery; settle() waits for everything.
      expect(lateFinished).toBe(false);
    } finally {
      gateEarly.resolve();
      gateLate.resolve();
    }
    await c.sandbox.settle();
    expect(lateFinished).toBe(true);
    const [first] = await attempts(c, { endpoint_id: early.id });
    expect(first).toMatchObject({ event_type: 'daily.data.early.created', status: 'success', created_at: iso(10) });
    const [second] = await attempts(c, { endpoint_id: late.id });
    expect(second).toMatchObject({ event_type: 'daily.data.late.created', status: 'success' });
  });

  it('finding 6: hanging receivers cost one timeout per retry step, together, and delay no other endpoint', async () => {
    const trace: string[] = [];
    let flakyCalls = 0;
    const transport: WebhookTransport = async (request) => {
      const name = new URL(request.url).pathname.slice(1);
      trace.push(`start ${name}`);
      if (name.startsWith('hang')) return hang(request, () => trace.push(`timeout ${name}`));
      flakyCalls++;
      return flakyCalls === 1 ? { status: 500, headers: {}, body: 'once' } : ok;
    };
    const c = createClient(adapter, { ...QUIET, webhookTransport: transport, deliveryTimeout: 0.02 });
    const hangs = [];
    for (const name of ['hang-a', 'hang-b', 'hang-c']) hangs.push(await createEndpoint(c, { url: `http://127.0.0.1:9/${name}` }));
    const flaky = await createEndpoint(c, { url: 'http://127.0.0.1:9/flaky' });
    emit(c, 'daily.data.steps.created');
    // One advance per retry step (an advance waits at most one attempt timeout in all, issue 27).
    await walk(c, [0, 60, 360, 2160, 9360, 27360, 63360, 99360, 2 * 86400]);
    // Every step starts the three hanging attempts together, then their timeouts fire together:
    // one timeout per step, not one per endpoint.
    const hangTrace = trace.filter((t) => t.includes('hang'));
    expect(hangTrace).toHaveLength(8 * 6);
    for (let step = 0; step < 8; step++) {
      const chunk = hangTrace.slice(step * 6, step * 6 + 6);
      expect(chunk.slice(0, 3).every((t) => t.startsWith('start'))).toBe(true);
      expect(chunk.slice(3).every((t) => t.startsWith('timeout'))).toBe(true);
    }
    // The other endpoint was tried in the first step and retried 5 s later, before the hanging
    // receivers' second step (at 60 s, the throttled delay after a timeout).
    expect(trace.indexOf('start flaky')).toBeLessThan(trace.indexOf('timeout hang-a'));
    expect(trace.lastIndexOf('start flaky')).toBeLessThan(trace.indexOf('start hang-a', 3));
    const flakyLog = await attempts(c, { endpoint_id: flaky.id });
    expect(flakyLog.map((a) => [a.created_at, a.status])).toEqual([
      [iso(0), 'failed'],
      [iso(5), 'success'],
    ]);
    const hangLog = await attempts(c, { endpoint_id: hangs[0]!.id });
    expect(hangLog).toHaveLength(8);
    expect(hangLog[0]).toMatchObject({
      status: 'failed',
      response: null,
      error: 'timeout: no answer within 0.02 s',
      next_attempt_at: iso(60),
    });
  });

  it('finding 2: refuses the sandbox itself as a destination, but keeps its test receivers and loopback', async () => {
    const c = createClient(adapter, QUIET);
    const { base, management } = c.sandbox.world.urls;
    for (const url of [
      `${base}/_sandbox/reset`,
      `${base}/_sandbox/clock/advance`,
      `${base}/v2/user`,
      `${management}/v1/org`,
      `${base.replace('127.0.0.1', 'localhost')}/_sandbox/reset`,
    ]) {
      expect422(await c.mgmt('POST', webhookBase(c), { body: { url } }), ['body', 'url'], WEBHOOKS_ERRORS.urlSelf);
    }
    await createEndpoint(c, { url: `${base}/_sandbox/receiver/mine` });
    const local = await createEndpoint(c, { url: 'http://127.0.0.1:9/hooks' });
    expect422(
      await c.mgmt('PATCH', `${webhookBase(c)}/${local.id}`, { body: { url: `${base}/_sandbox/reset`, description: 'changed' } }),
      ['body', 'url'],
      WEBHOOKS_ERRORS.urlSelf,
    );
    const after = await c.mgmt('GET', `${webhookBase(c)}/${local.id}`);
    expect(after.body).toMatchObject({ url: 'http://127.0.0.1:9/hooks', description: '' });
    const list = await c.mgmt('GET', webhookBase(c));
    expect(list.body.data).toHaveLength(2);
  });

  it('finding 2: refuses link-local, metadata and (off loopback) private addresses; --webhook-allow restricts further', async () => {
    const c = createClient(adapter, QUIET);
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/',
      'http://[fe80::1]/hook',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://[fd00:ec2::254]/',
    ]) {
      expect422(await c.mgmt('POST', webhookBase(c), { body: { url } }), ['body', 'url'], WEBHOOKS_ERRORS.urlLinkLocal);
    }
    expect((await c.mgmt('GET', webhookBase(c))).body.data).toHaveLength(0);
    // By default private networks are reachable (a receiver on the LAN).
    await createEndpoint(c, { url: 'http://10.1.2.3/hook' });

    // Served off loopback (the CLI sets this when it binds another address): private ones are refused.
    const exposed = createClient(adapter, { ...QUIET, webhookPrivateNetworks: false });
    for (const url of ['http://10.1.2.3/hook', 'http://192.168.0.7/', 'http://172.20.0.1/', 'http://[fd12::1]/']) {
      expect422(await exposed.mgmt('POST', webhookBase(exposed), { body: { url } }), ['body', 'url'], WEBHOOKS_ERRORS.urlPrivate);
    }
    await createEndpoint(exposed, { url: 'http://127.0.0.1:9/still-local' });

    const pinned = createClient(adapter, { ...QUIET, webhookAllow: ['hooks.example.com', '*.partner.test'] });
    expect422(
      await pinned.mgmt('POST', webhookBase(pinned), { body: { url: 'https://evil.example.net/' } }),
      ['body', 'url'],
      WEBHOOKS_ERRORS.urlNotAllowed,
    );
    expect422(
      await pinned.mgmt('POST', webhookBase(pinned), { body: { url: 'http://127.0.0.1:9/x' } }),
      ['body', 'url'],
      WEBHOOKS_ERRORS.urlNotAllowed,
    );
    await createEndpoint(pinned, { url: 'https://hooks.example.com/in' });
    await createEndpoint(pinned, { url: 'https://eu.partner.test/in' });
    await createEndpoint(pinned, { url: `${pinned.sandbox.world.urls.base}/_sandbox/receiver/ok` });
  });

  it('finding 2: an endpoint that became the sandbox itself is refused at send time, without traffic', async () => {
    const sent: string[] = [];
    const c = createClient(adapter, { ...QUIET, webhookTransport: async (r) => (sent.push(r.url), ok) });
    const { id } = await createEndpoint(c, { url: 'http://127.0.0.1:7777/_sandbox/reset' });
    c.sandbox.setUrls({ base: 'http://127.0.0.1:7777', management: 'http://127.0.0.1:7777/management' });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    expect(sent).toEqual([]);
    const [first] = await attempts(c, { endpoint_id: id });
    expect(first).toMatchObject({ status: 'failed', response: null, error: `refused: ${WEBHOOKS_ERRORS.urlSelf}` });
  });

  it('finding 7: custom header values the management API hides are masked in every control-plane answer', async () => {
    const received: Array<Record<string, string>> = [];
    const c = createClient(adapter, {
      ...QUIET,
      webhookTransport: async (r) => (received.push(r.headers), { status: 500, headers: {}, body: '' }),
    });
    const { id } = await createEndpoint(c, { url: 'http://127.0.0.1:9/masked' });
    const put = await c.mgmt('PUT', `${webhookBase(c)}/${id}/headers`, {
      body: { headers: { Authorization: 'Bearer s3cret-token', 'X-Api-Key': 'k-s3cret', 'X-Trace': 'visible' } },
    });
    expect(put.status).toBe(204);
    const hidden = await c.mgmt('GET', `${webhookBase(c)}/${id}/headers`);
    expect(hidden.body).toEqual({ headers: { 'X-Trace': 'visible' }, sensitive: ['Authorization', 'X-Api-Key'] });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    // The receiver gets the real values ...
    expect(received[0]).toMatchObject({ Authorization: 'Bearer s3cret-token', 'X-Api-Key': 'k-s3cret', 'X-Trace': 'visible' });
    // ... the control plane never shows them.
    const list = await c.get('/_sandbox/webhooks/attempts', { query: { endpoint_id: id } });
    const [attempt] = list.body.attempts;
    expect(attempt.request.headers).toMatchObject({ Authorization: '********', 'X-Api-Key': '********', 'X-Trace': 'visible' });
    const detail = await c.get(`/_sandbox/webhooks/messages/${attempt.msg_id}`);
    const resend = await c.post(`/_sandbox/webhooks/messages/${attempt.msg_id}/endpoints/${id}/resend`);
    expect(resend.status).toBe(200);
    expect(received).toHaveLength(2);
    for (const text of [list.text, detail.text, resend.text, (await c.get('/_sandbox/webhooks/attempts')).text])
      expect(text).not.toContain('s3cret');
  });

  it('finding 7: the built-in test receiver masks them in what it recorded', async () => {
    const c = createClient(adapter, QUIET);
    if (adapter === 'express') {
      const server = createExpressApp(c.sandbox).listen(0, '127.0.0.1');
      servers.push(server);
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      c.sandbox.setUrls({ base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
    const { id } = await createEndpoint(c, { url: `${c.sandbox.world.urls.base}/_sandbox/receiver/masked` });
    await c.mgmt('PUT', `${webhookBase(c)}/${id}/headers`, { body: { headers: { 'X-Auth-Token': 'tok-s3cret', 'X-Trace': 'visible' } } });
    emit(c, 'daily.data.steps.created');
    await flush(c);
    const got = await c.get('/_sandbox/receiver/masked');
    expect(got.body.deliveries).toHaveLength(1);
    expect(got.body.deliveries[0]).toMatchObject({ verified: true, headers: { 'x-auth-token': '********', 'x-trace': 'visible' } });
    expect(got.text).not.toContain('s3cret');
  });

  it('finding 3: pipeline NDJSON goes only to a named file inside the data directory', async () => {
    const none = createClient(adapter, QUIET);
    const refused = await none.put('/_sandbox/pipelines/ndjson', { path: 'events.ndjson' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: WEBHOOKS_ERRORS.ndjsonNoDataDir });

    const c = createClient(adapter, { ...QUIET, fileSink: directorySink(dir) });
    for (const path of ['../escape.ndjson', '/etc/passwd', 'a/../../b.ndjson', './x', 'a//b', '..', 'C:\\x']) {
      const res = await c.put('/_sandbox/pipelines/ndjson', { path });
      expect(res.status, path).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'path'], msg: `Value error, ${WEBHOOKS_ERRORS.ndjsonBadName}` });
    }
    expect((await c.get('/_sandbox/pipelines/streams')).body.ndjson_file).toBeNull();
    const set = await c.put('/_sandbox/pipelines/ndjson', { path: `${adapter}/out.ndjson` });
    expect(set.body).toEqual({ ndjson_file: `${adapter}/out.ndjson` });
    expect(readFileSync(join(dir, adapter, 'out.ndjson'), 'utf8')).toBe('');

    const broken = createClient(adapter, {
      ...QUIET,
      fileSink: { append: () => Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })) },
    });
    const failed = await broken.put('/_sandbox/pipelines/ndjson', { path: 'events.ndjson' });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ detail: WEBHOOKS_TEXTS.ndjsonWriteFailed('EACCES') });
    expect((await broken.get('/_sandbox/pipelines/streams')).body.ndjson_file).toBeNull();
  });
});
