/**
 * Lab-derived timeseries (cholesterol and its deprecated sub-paths, IgE, IgG), on both adapters:
 * samples come from the user's completed lab results, grouped by the performing lab, in mmol/L,
 * consistent with the order's results; the real schemas; errors like the other timeseries.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { firstUserId, newOrder } from '../support/lab-helpers.js';
import { expectWire } from '../support/wire.js';

/** Lab-derived timeseries take numeric results only; without result_types the sandbox cycles numeric, comment and range. */
const NUMERIC = { result_types: ['numeric'] };

const oas = oasValidator('data');
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const SLUG: Record<string, string> = {
  'cholesterol-total': 'cholesterol/total',
  'ldl-cholesterol': 'cholesterol/ldl',
  'hdl-cholesterol': 'cholesterol/hdl',
  triglycerides: 'cholesterol/triglycerides',
};

forEachAdapter('timeseries: lab-derived resources', (adapter) => {
  it('cholesterol comes from completed lab results, by lab, in mmol/L', async () => {
    const c = createClient(adapter, { seed: 41, users: 2, usersElsewhere: 0 });
    const userId = await firstUserId(c, 1);
    const q = { start_date: '2025-01-01' };
    const before = await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: q });
    expect(before.status).toBe(200);
    const known = Object.values(before.body.groups).flatMap((g: any) => g[0].data).length;

    const order = await newOrder(c, 'walk_in_test', { userIndex: 1 });
    // Ordered only: no results yet, nothing new.
    const pending = await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: q });
    expect(Object.values(pending.body.groups).flatMap((g: any) => g[0].data)).toHaveLength(known);
    expect((await c.post(`/v3/order/${order.id}/test`, NUMERIC)).status).toBe(200);
    const result = (await c.get(`/v3/order/${order.id}/result`)).body;
    const lipids = result.results.filter((r: any) => SLUG[r.slug] && r.type === 'numeric');
    expect(lipids.length).toBe(4);

    const grouped = await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: q });
    expect(grouped.status).toBe(200);
    oas?.expectValid('GroupedCholesterolResponse', grouped.body);
    expectWire('timeseries.cholesterol.grouped', grouped);
    expect(grouped.body.next_cursor).toBeNull();
    const lab = order.lab_test.lab.slug as string;
    const group = grouped.body.groups[lab][0];
    expect(group.source).toMatchObject({ provider: lab, type: 'unknown' });
    const mine = group.data.filter((s: any) => Date.parse(s.timestamp) === Date.parse(lipids[0].timestamp));
    expect(mine).toHaveLength(4);
    for (const r of lipids) {
      const s = mine.find((x: any) => x.type === SLUG[r.slug]);
      const per = r.slug === 'triglycerides' ? 88.57 : 38.67;
      expect(s, r.slug).toMatchObject({ unit: 'mmol/L', value: Math.round((r.value / per) * 100) / 100 });
    }

    const all = await c.get(`/v2/timeseries/${userId}/cholesterol`, { query: q });
    expect(all.status).toBe(200);
    for (const s of all.body) oas?.expectValid('ClientFacingCholesterolTimeseries', s);
    expectWire('timeseries.cholesterol', all);
    expect(all.body).toHaveLength(known + 4);
    for (const kind of ['total', 'ldl', 'hdl', 'triglycerides']) {
      const one = await c.get(`/v2/timeseries/${userId}/cholesterol/${kind}`, { query: q });
      expect(one.status).toBe(200);
      expect(one.body.length).toBeGreaterThan(0);
      expect(one.body.every((s: any) => s.type === `cholesterol/${kind}`)).toBe(true);
    }
    // Lab filter: the performing lab, another lab, a wearable provider.
    expect((await c.get(`/v2/timeseries/${userId}/cholesterol`, { query: { ...q, provider: lab } })).body.length).toBeGreaterThanOrEqual(4);
    const other = lab === 'quest' ? 'labcorp' : 'quest';
    const otherLab = await c.get(`/v2/timeseries/${userId}/cholesterol`, { query: { ...q, provider: other } });
    expect(otherLab.body.every((s: any) => !mine.some((m: any) => m.timestamp === s.timestamp))).toBe(true);
    expect((await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: { ...q, provider: 'oura' } })).body.groups).toEqual({});
    // A window before the collection has none of it.
    const early = await c.get(`/v2/timeseries/${userId}/cholesterol/total`, {
      query: { start_date: '2025-01-01', end_date: '2025-01-02' },
    });
    expect(early.body).toEqual([]);
  });

  it('IgE and IgG: real shapes; an order without immunoglobulin markers brings no samples (see timeseries-immunoglobulins)', async () => {
    const c = createClient(adapter, { seed: 42, users: 2, usersElsewhere: 0 });
    const userId = await firstUserId(c);
    // The default world seeds this user an immunoglobulin panel: what it has before is what it keeps.
    const before = new Map<string, unknown>();
    for (const r of ['ige', 'igg'])
      before.set(r, (await c.get(`/v2/timeseries/${userId}/${r}`, { query: { start_date: '2025-01-01' } })).body);
    const order = await newOrder(c, 'walk_in_test');
    await c.post(`/v3/order/${order.id}/test`, NUMERIC);
    for (const r of ['ige', 'igg']) {
      const raw = await c.get(`/v2/timeseries/${userId}/${r}`, { query: { start_date: '2025-01-01' } });
      expect(raw.status).toBe(200);
      expect(raw.body).toEqual(before.get(r));
      const grouped = await c.get(`/v2/timeseries/${userId}/${r}/grouped`, { query: { start_date: '2025-01-01' } });
      expect(grouped.status).toBe(200);
      oas?.expectValid(r === 'ige' ? 'GroupedIgeResponse' : 'GroupedIggResponse', grouped.body);
    }
  });

  it('final results announce daily.data.cholesterol.created; corrected ones .updated with the same keys', async () => {
    const c = createClient(adapter, { seed: 44, users: 1, usersElsewhere: 0, feed: 'on' });
    const userId = await firstUserId(c);
    const order = await newOrder(c, 'walk_in_test');
    const seen: number[] = [];
    c.sandbox.world.events.subscribe((entry) => {
      if (entry.envelope.user_id === userId) seen.push(entry.seq);
    });
    const res = await c.post(`/v3/order/${order.id}/test`, NUMERIC, { query: { final_status: 'completed.walk_in_test.corrected' } });
    expect(res.status, res.text).toBe(200);
    const entries = (await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId } })).body.events;
    // Subscribers get the events in journal order (the lab event, then what follows from it).
    expect(seen).toEqual(entries.map((e: any) => e.seq).filter((n: number) => n >= (seen[0] ?? 0)));
    const journal = entries.map((e: any) => e.envelope);
    const lab = order.lab_test.lab.slug as string;
    const chol = journal.filter((e: any) => e.event_type.startsWith('daily.data.cholesterol.'));
    expect(chol.map((e: any) => e.event_type)).toEqual(['daily.data.cholesterol.created', 'daily.data.cholesterol.updated']);
    for (const e of chol) {
      oas?.expectValid('ClientFacingCholesterolChanged', { ...e, client_user_id: '00000000-0000-4000-8000-000000000000' });
      expect(e.data.source).toMatchObject({ provider: lab });
      expect(e.data.user_id).toBe(userId);
      expect(e.data.data.map((s: any) => s.type).sort()).toEqual([
        'cholesterol/hdl',
        'cholesterol/ldl',
        'cholesterol/total',
        'cholesterol/triglycerides',
      ]);
    }
    const key = (s: any) => `${s.type}|${s.timestamp}`;
    expect(chol[1].data.data.map(key)).toEqual(chol[0].data.data.map(key));
    // The last announcement is what the API serves.
    const served = await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: { start_date: '2025-01-01', provider: lab } });
    const mine = new Set(chol[1].data.data.map(key));
    expect(served.body.groups[lab][0].data.filter((s: any) => mine.has(key(s)))).toEqual(chol[1].data.data);
    // No IgE / IgG results in the order: no events for them.
    expect(journal.some((e: any) => /^daily\.data\.ig[eg]\./.test(e.event_type))).toBe(false);
  });

  it('nobody listening (feed auto, no endpoint): no lab-derived events', async () => {
    const c = createClient(adapter, { seed: 45, users: 1, usersElsewhere: 0 });
    const userId = await firstUserId(c);
    const order = await newOrder(c, 'walk_in_test');
    await c.post(`/v3/order/${order.id}/test`, NUMERIC);
    const journal = (await c.get('/_sandbox/events', { query: { limit: 10000, user_id: userId, event_type_prefix: 'daily.data.' } })).body
      .events;
    expect(journal).toEqual([]);
    expect(
      (await c.get(`/v2/timeseries/${userId}/cholesterol`, { query: { start_date: '2025-01-01' } })).body.length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('errors like the other timeseries', async () => {
    const c = createClient(adapter, { seed: 43, users: 1, usersElsewhere: 0 });
    const userId = await firstUserId(c);
    for (const path of ['ige', 'igg/grouped', 'cholesterol', 'cholesterol/hdl', 'cholesterol/grouped']) {
      const unknown = await c.get(`/v2/timeseries/${UNKNOWN}/${path}`, { query: { start_date: '2025-01-01' } });
      expect(unknown.status, path).toBe(404);
      expect((await c.get(`/v2/timeseries/${userId}/${path}`)).status, path).toBe(422);
      const bad = await c.get(`/v2/timeseries/${userId}/${path}`, { query: { start_date: '2025-01-01', provider: 'nope' } });
      expect(bad.status, path).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['query', 'provider']);
      const backwards = await c.get(`/v2/timeseries/${userId}/${path}`, { query: { start_date: '2025-02-01', end_date: '2025-01-01' } });
      expect(backwards.status, path).toBe(422);
    }
    const cursor = await c.get(`/v2/timeseries/${userId}/cholesterol/grouped`, { query: { start_date: '2025-01-01', next_cursor: '!!' } });
    expect(cursor.status).toBe(422);
  });
});
