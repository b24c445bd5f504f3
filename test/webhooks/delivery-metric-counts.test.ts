/**
 * Issue 45: the event delivery metric (management `event_delivery_metric`) reads the attempts
 * counted per team environment and five minutes (state/webhooks/attempt-times.ts), kept beside
 * the delivery log, instead of walking the log. On both adapters, after each change (deliveries
 * that succeed and fail, their retries over minutes, hours and days, a manual resend, retention
 * dropping messages, a saved world read back into another sandbox) the metric of every interval
 * and environment counts exactly the attempts the log lists, and the counts are not saved.
 */
import { expect, it } from 'vitest';
import type { Environment } from '../../src/engine/tenancy.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createClient, forEachAdapter, type AdapterName, type TestClient } from '../support/client.js';
import { attempts, createEndpoint, emit, flush, QUIET } from '../support/webhooks-support.js';

const INTERVALS = ['5m', '15m', '1h', '1d'] as const;
const ENVIRONMENTS: Environment[] = ['sandbox', 'production'];

/** Endpoints under `/fail/` answer 500, the others 200: no network. */
const transport: WebhookTransport = async (request) => ({ status: request.url.includes('/fail/') ? 500 : 200, headers: {}, body: '' });

const options = { ...QUIET, webhookTransport: transport } as const;

const metricPath = (c: TestClient, environment: Environment) =>
  `/v1/org/${c.orgId}/team/${c.creds.teams[0]?.team_id}/${environment}/event_delivery_metric`;

type Counts = Record<'success' | 'failed', number[]>;

/** The metric of every interval and environment: its step starts and counts. */
async function metrics(c: TestClient): Promise<string[]> {
  const out: string[] = [];
  for (const environment of ENVIRONMENTS)
    for (const interval of INTERVALS) {
      const res = await c.mgmt('GET', metricPath(c, environment), { query: { interval } });
      expect(res.status, res.text).toBe(200);
      out.push(`${environment} ${interval} ${res.text}`);
    }
  return out;
}

/** What the metric should say: the attempts the log lists, counted by hand in the answer's steps. */
async function expectCounted(c: TestClient): Promise<void> {
  for (const environment of ENVIRONMENTS) {
    const listed = await attempts(c, { team_id: c.creds.teams[0]?.team_id as string, environment });
    expect(listed.length).toBeLessThan(1000);
    for (const interval of INTERVALS) {
      const res = await c.mgmt('GET', metricPath(c, environment), { query: { interval } });
      const series = res.body.data.result as Array<{ metric: { status: 'success' | 'failed' }; values: Array<[number, string]> }>;
      const starts = (series[0]?.values ?? []).map(([t]) => t);
      const step = (starts[1] ?? 0) - (starts[0] ?? 0);
      const want: Counts = { success: starts.map(() => 0), failed: starts.map(() => 0) };
      for (const a of listed) {
        const t = Math.floor(Date.parse(a.created_at) / 1000);
        const i = Math.floor((t - (starts[0] ?? 0)) / step);
        if (i >= 0 && i < starts.length) (want[a.status as 'success' | 'failed'][i] as number)++;
      }
      for (const s of series)
        expect(
          s.values.map(([, n]) => Number(n)),
          `${environment} ${interval} ${s.metric.status}`,
        ).toEqual(want[s.metric.status]);
    }
  }
}

/** What changes the attempt log, one step after the other. */
const STEPS: ReadonlyArray<(c: TestClient) => Promise<unknown>> = [
  async (c) => {
    await createEndpoint(c, { url: 'https://hooks.example.com/ok/a' });
    await createEndpoint(c, { url: 'https://hooks.example.com/fail/b' });
    await createEndpoint(c, { url: 'https://hooks.example.com/fail/c' }, 'production');
  },
  async (c) => {
    for (const id of ['a', 'b', 'c']) emit(c, 'labtest.order.created', { id });
    emit(c, 'labtest.order.created', { id: 'p' }, 'production');
    await flush(c);
  },
  (c) => c.advance(7 * 60),
  async (c) => {
    emit(c, 'labtest.order.updated', { id: 'a' });
    await c.advance(50 * 60);
  },
  (c) => c.advance(5 * 3600),
  async (c) => {
    const failed = await attempts(c, { status: 'failed', environment: 'sandbox' });
    const res = await c.post(`/_sandbox/webhooks/messages/${failed[0]?.msg_id}/endpoints/${failed[0]?.endpoint_id}/resend`);
    expect(res.status, res.text).toBeLessThan(300);
    await c.sandbox.settle();
  },
  async (c) => {
    for (const id of ['d', 'e']) emit(c, 'labtest.order.created', { id });
    await c.advance(26 * 3600);
  },
  // Every retry is over: retention drops the finished messages beyond the two most recent.
  async (c) => {
    const before = (await attempts(c)).length;
    const res = await c.put('/_sandbox/webhooks/settings', { retention: 2 });
    expect(res.status, res.text).toBe(200);
    expect((await attempts(c)).length).toBeLessThan(before);
  },
  async (c) => {
    for (const id of ['f', 'g', 'h']) emit(c, 'labtest.order.created', { id });
    await c.advance(3600);
  },
];

async function replayed(adapter: AdapterName, steps: number): Promise<TestClient> {
  const c = createClient(adapter, options);
  for (const step of STEPS.slice(0, steps)) await step(c);
  await c.sandbox.settle();
  return c;
}

forEachAdapter('webhooks: the delivery metric from the counts kept beside the log', (adapter) => {
  it('counts what the log lists after every change, and a saved world read back counts the same', async () => {
    const c = createClient(adapter, options);
    const seen: string[][] = [];
    for (const step of STEPS) {
      await step(c);
      await c.sandbox.settle();
      await expectCounted(c);
      seen.push(await metrics(c));
    }
    // The counts move with the changes (so the comparisons compare something).
    expect(seen[1]).not.toEqual(seen[0]);
    expect(seen[7]).not.toEqual(seen[6]);
    expect(seen[8]).not.toEqual(seen[7]);
    const saved = await c.get('/_sandbox/world');
    expect(saved.status).toBe(200);
    const loaded = createClient(adapter, options);
    const put = await loaded.put('/_sandbox/world', saved.text, { headers: { 'content-type': 'application/json' } });
    expect(put.status, put.text).toBeLessThan(300);
    expect(await metrics(loaded)).toEqual(seen[seen.length - 1]);
    expect((await loaded.get('/_sandbox/world')).text).toBe(saved.text);
    // A sandbox that made the same changes without reading the metric on the way answers the same.
    expect(await metrics(await replayed(adapter, STEPS.length))).toEqual(seen[seen.length - 1]);
  });
});
