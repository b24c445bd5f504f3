/**
 * Signed delivery to a real receiver on 127.0.0.1, verified by the official libraries: `svix`
 * for the default header set, `standardwebhooks` for the white-label option; filters, the team
 * allowlist, custom headers, ordering and tenancy.
 */
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TransportRequest, TransportResponse, WebhookTransport } from '../../src/index.js';
import { createClient, forEachAdapter } from '../support/client.js';
import {
  attempts,
  createEndpoint,
  emit,
  flush,
  startReceiver,
  USER_ID,
  webhookBase,
  type TestReceiver,
  QUIET,
} from '../support/webhooks-support.js';

let rx: TestReceiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

function receivedAt(path: string) {
  return rx.received.filter((r) => r.path === path);
}

/** The wall clock injected into the signing test: not the virtual clock's time, not the real time. */
const WALL = Date.parse('2026-03-01T12:00:30.700Z');

/** Runs `verify` as a receiver whose own clock reads `at` (the libraries check the timestamp against it). */
function verifiedAt<T>(at: number, verify: () => T): T {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    return verify();
  } finally {
    vi.useRealTimers();
  }
}

/** A transport that holds every request until the test answers it. */
function gatedTransport() {
  const sent: Array<{ request: TransportRequest; answer: (r: TransportResponse) => void }> = [];
  const waiting: Array<() => void> = [];
  const transport: WebhookTransport = (request) =>
    new Promise<TransportResponse>((answer) => {
      sent.push({ request, answer });
      waiting.shift()?.();
    });
  /** Resolves once `n` requests have been sent. */
  const sentCount = (n: number) => (sent.length >= n ? Promise.resolve() : new Promise<void>((r) => waiting.push(r)));
  return { transport, sent, sentCount };
}

forEachAdapter('webhook delivery', (adapter) => {
  describe('signing', () => {
    it('POSTs the exact signed JSON with svix headers that svix Webhook.verify accepts', async () => {
      const c = createClient(adapter, { ...QUIET, wallClock: () => WALL });
      const path = `/${adapter}/signing-svix`;
      const { id, secret } = await createEndpoint(c, { url: `${rx.url}${path}` });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
      const entry = emit(c, 'daily.data.steps.created', { steps: 1200 });
      expect(entry).not.toBeNull();
      await flush(c);
      const got = receivedAt(path);
      expect(got).toHaveLength(1);
      const r = got[0]!;
      // Signed at the injected wall clock (Unix seconds), not at the virtual clock's time.
      expect(r.headers['svix-timestamp']).toBe(String(Math.floor(WALL / 1000)));
      const payload = verifiedAt(WALL, () => new Webhook(secret).verify(r.body, r.headers)) as Record<string, unknown>;
      expect(payload).toEqual({
        event_type: 'daily.data.steps.created',
        data: { steps: 1200 },
        team_id: c.creds.teams[0]!.team_id,
        user_id: USER_ID,
        client_user_id: 'client-1',
      });
      expect(r.body).toBe(JSON.stringify(entry!.envelope));
      expect(r.headers['svix-id']).toMatch(/^msg_[0-9A-Za-z]{27}$/);
      expect(r.headers['svix-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      // A receiver whose clock is more than 5 minutes off refuses it (svix's tolerance).
      expect(() => verifiedAt(WALL + 6 * 60_000, () => new Webhook(secret).verify(r.body, r.headers))).toThrow(/too old/i);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['user-agent']).toMatch(/^Svix-Webhooks\/1\./);
      expect(r.headers['webhook-id']).toBeUndefined();
      // The standard library reads only webhook-* headers, so the default set is svix-* only.
      expect(() => verifiedAt(WALL, () => new StandardWebhook(secret).verify(r.body, r.headers))).toThrow(/Missing required headers/);
      // A tampered body or another secret fails verification.
      expect(() => verifiedAt(WALL, () => new Webhook(secret).verify(r.body.replace('1200', '1201'), r.headers))).toThrow(/signature/i);
      const other = await createEndpoint(c, { url: `${rx.url}/${adapter}/unused`, filter_types: ['none.such'] });
      expect(() => verifiedAt(WALL, () => new Webhook(other.secret).verify(r.body, r.headers))).toThrow(/signature/i);
      // The log holds the attempt with what was sent and what came back.
      const log = await attempts(c, { endpoint_id: id });
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({
        msg_id: r.headers['svix-id'],
        endpoint_id: id,
        trigger: 'scheduled',
        attempt_number: 1,
        status: 'success',
        created_at: '2026-01-05T09:00:00.000Z',
        response: { status_code: 200, body: 'ok' },
        error: null,
        next_attempt_at: null,
      });
      expect(log[0]!.request.body).toBe(r.body);
      expect(log[0]!.request.headers['svix-signature']).toBe(r.headers['svix-signature']);
    });

    it('sends the webhook-* set instead when whitelabel_headers is set, which standardwebhooks verifies', async () => {
      const c = createClient(adapter, QUIET);
      const path = `/${adapter}/signing-std`;
      const { webhook, secret } = await createEndpoint(c, { url: `${rx.url}${path}`, whitelabel_headers: true });
      expect(webhook.whitelabel_headers).toBe(true);
      emit(c, 'labtest.order.created', { id: 'o1' });
      await flush(c);
      const [r] = receivedAt(path);
      expect(r).toBeDefined();
      expect(r!.headers['svix-id']).toBeUndefined();
      expect(r!.headers['webhook-id']).toMatch(/^msg_/);
      expect(new StandardWebhook(secret).verify(r!.body, r!.headers)).toMatchObject({ event_type: 'labtest.order.created' });
      expect(new Webhook(secret).verify(r!.body, r!.headers)).toMatchObject({ event_type: 'labtest.order.created' });
    });

    it('uses a supplied secret (with or without whsec_) and rejects malformed ones with 422', async () => {
      const c = createClient(adapter, QUIET);
      const raw = Buffer.alloc(32, 7).toString('base64');
      const path = `/${adapter}/own-secret`;
      const { secret } = await createEndpoint(c, { url: `${rx.url}${path}`, secret: raw });
      expect(secret).toBe(`whsec_${raw}`);
      emit(c, 'provider.connection.created');
      await flush(c);
      const [r] = receivedAt(path);
      expect(new Webhook(`whsec_${raw}`).verify(r!.body, r!.headers)).toMatchObject({ event_type: 'provider.connection.created' });
      for (const bad of [
        'short',
        `whsec_${Buffer.alloc(16).toString('base64')}`,
        `whsec_${Buffer.alloc(65).toString('base64')}`,
        'whsec_not base64!!',
      ]) {
        const res = await c.mgmt('POST', webhookBase(c), { body: { url: `${rx.url}/x`, secret: bad } });
        expect(res.status, bad).toBe(422);
        expect(res.body.detail[0].loc).toEqual(['body', 'secret']);
      }
    });
  });

  describe('routing', () => {
    it('sends an event to every enabled endpoint whose filter_types match, one message id per event', async () => {
      const c = createClient(adapter, QUIET);
      const all = await createEndpoint(c, { url: `${rx.url}/${adapter}/route-all` });
      const steps = await createEndpoint(c, { url: `${rx.url}/${adapter}/route-steps`, filter_types: ['daily.data.steps.created'] });
      const off = await createEndpoint(c, { url: `${rx.url}/${adapter}/route-off`, disabled: true });
      emit(c, 'daily.data.steps.created');
      emit(c, 'daily.data.sleep.created');
      await flush(c);
      const typesAt = (p: string) => receivedAt(p).map((r) => (JSON.parse(r.body) as { event_type: string }).event_type);
      expect(typesAt(`/${adapter}/route-all`)).toEqual(['daily.data.steps.created', 'daily.data.sleep.created']);
      expect(typesAt(`/${adapter}/route-steps`)).toEqual(['daily.data.steps.created']);
      expect(receivedAt(`/${adapter}/route-off`)).toHaveLength(0);
      const idAll = receivedAt(`/${adapter}/route-all`)[0]!.headers['svix-id'];
      expect(receivedAt(`/${adapter}/route-steps`)[0]!.headers['svix-id']).toBe(idAll);
      expect(
        new Webhook(steps.secret).verify(receivedAt(`/${adapter}/route-steps`)[0]!.body, receivedAt(`/${adapter}/route-steps`)[0]!.headers),
      ).toBeTruthy();
      const msgs = await c.get('/_sandbox/webhooks/messages', { query: { endpoint_id: all.id } });
      expect(msgs.body.messages.map((m: { event_type: string }) => m.event_type)).toEqual([
        'daily.data.steps.created',
        'daily.data.sleep.created',
      ]);
      expect(msgs.body.messages[0].destinations).toEqual([
        expect.objectContaining({ endpoint_id: all.id, status: 'success', attempts: 1 }),
      ]);
      expect(await attempts(c, { endpoint_id: off.id })).toHaveLength(0);
    });

    it('applies the team allowlist (event_type_prefixes) before filter_types', async () => {
      const c = createClient(adapter, QUIET);
      const path = `/${adapter}/allowlist`;
      await createEndpoint(c, { url: `${rx.url}${path}` });
      const team = c.sandbox.world.tenancy.teams.get(c.creds.teams[0]!.team_id)!;
      team.settings.sandbox.event_type_prefixes = ['labtest.'];
      expect(emit(c, 'daily.data.steps.created')).toBeNull();
      emit(c, 'labtest.order.updated');
      team.settings.sandbox.event_type_prefixes = [];
      emit(c, 'daily.data.heartrate.created');
      await flush(c);
      expect(receivedAt(path).map((r) => JSON.parse(r.body).event_type)).toEqual(['labtest.order.updated', 'daily.data.heartrate.created']);
    });

    it('keeps team environments apart', async () => {
      const c = createClient(adapter, QUIET);
      const path = `/${adapter}/tenancy`;
      await createEndpoint(c, { url: `${rx.url}${path}` }, 'production');
      emit(c, 'daily.data.steps.created', {}, 'sandbox');
      emit(c, 'daily.data.steps.created', {}, 'sandbox', 1);
      emit(c, 'daily.data.sleep.created', {}, 'production');
      await flush(c);
      expect(receivedAt(path).map((r) => JSON.parse(r.body).event_type)).toEqual(['daily.data.sleep.created']);
    });

    it("delivers one endpoint's events in the order they happened, one at a time, even when the receiver is slow", async () => {
      // The receiver answers only when the test says so: each request stays unanswered while the
      // test checks that nothing overtook it.
      const gate = gatedTransport();
      const c = createClient(adapter, { ...QUIET, webhookTransport: gate.transport });
      await createEndpoint(c, { url: `${rx.url}/${adapter}/order` });
      for (let i = 0; i < 5; i++) emit(c, `daily.data.e${i}.created`, { i });
      const flushed = flush(c);
      for (let i = 0; i < 5; i++) {
        await gate.sentCount(i + 1);
        await new Promise((r) => setImmediate(r)); // one turn of the event loop for anything that would overtake
        expect(gate.sent).toHaveLength(i + 1);
        gate.sent[i]?.answer({ status: 200, headers: {}, body: 'ok' });
      }
      await flushed;
      expect(gate.sent.map((s) => JSON.parse(s.request.body).data.i)).toEqual([0, 1, 2, 3, 4]);
      expect((await attempts(c)).map((a) => a.status)).toEqual(['success', 'success', 'success', 'success', 'success']);
    });
  });

  describe('custom headers', () => {
    it('sends them with every delivery and hides sensitive values when read back', async () => {
      const c = createClient(adapter, QUIET);
      const path = `/${adapter}/headers`;
      const { id, secret } = await createEndpoint(c, { url: `${rx.url}${path}` });
      const url = `${webhookBase(c)}/${id}/headers`;
      expect((await c.mgmt('GET', url)).body).toEqual({ headers: {}, sensitive: [] });
      const put = await c.mgmt('PUT', url, {
        body: { headers: { 'X-Tenant': 'acme', Authorization: 'Bearer s3cret', 'X-Api-Key': 'k1' } },
      });
      expect(put.status).toBe(204);
      expect(put.text).toBe('');
      const read = await c.mgmt('GET', url);
      expect(read.body).toEqual({ headers: { 'X-Tenant': 'acme' }, sensitive: ['Authorization', 'X-Api-Key'] });
      emit(c, 'daily.data.steps.created');
      await flush(c);
      const [r] = receivedAt(path);
      expect(r!.headers['x-tenant']).toBe('acme');
      expect(r!.headers['authorization']).toBe('Bearer s3cret');
      expect(r!.headers['x-api-key']).toBe('k1');
      expect(new Webhook(secret).verify(r!.body, r!.headers)).toBeTruthy();
      // Replacing drops the old set.
      await c.mgmt('PUT', url, { body: { headers: { 'X-Other': '1' } } });
      expect((await c.mgmt('GET', url)).body).toEqual({ headers: { 'X-Other': '1' }, sensitive: [] });
    });

    it.each([
      [{ 'svix-id': 'x' }, 'forbidden prefix'],
      [{ 'Content-Type': 'text/plain' }, 'forbidden key'],
      [{ 'User-Agent': 'me' }, 'forbidden key'],
      [{ 'bad header': 'x' }, 'Invalid Header Name'],
      [{ 'X-Long': 'a'.repeat(4097) }, 'Maximum header length'],
    ])('refuses %o with 422 and changes nothing', async (headers, message) => {
      const c = createClient(adapter, QUIET);
      const { id } = await createEndpoint(c, { url: `${rx.url}/${adapter}/hdr-bad` });
      const url = `${webhookBase(c)}/${id}/headers`;
      await c.mgmt('PUT', url, { body: { headers: { 'X-Keep': '1' } } });
      const res = await c.mgmt('PUT', url, { body: { headers: { 'X-Fine': 'ok', ...headers } } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].msg).toContain(message);
      expect((await c.mgmt('GET', url)).body.headers).toEqual({ 'X-Keep': '1' });
    });
  });
});

describe('in-process subscriber', () => {
  it('createSandbox({ onEvent }) gets every event without HTTP', async () => {
    const seen: string[] = [];
    const c = createClient('express', { ...QUIET, onEvent: (entry) => seen.push(entry.envelope.event_type) });
    emit(c, 'daily.data.steps.created');
    emit(c, 'labtest.order.created');
    expect(seen).toEqual(['daily.data.steps.created', 'labtest.order.created']);
  });
});
