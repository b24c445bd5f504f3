/**
 * The electrocardiogram_voltage bound: the plain list answers at most MAX_VOLTAGE_SESSIONS
 * sessions (the oldest in the window) however wide the window; the grouped variant pages by
 * cursor through all of them, and its pages add up to every session's samples.
 *
 * One transport: what is checked is the engine's bound and paging (a few MB of voltages per
 * run); adapters-parity.test.ts proves every adapter relays the ECG voltage answers (1.6 MB)
 * byte-identically. The window holds a few sessions more than the bound, not two months of them.
 */
import { describe, expect, it } from 'vitest';
import { MAX_VOLTAGE_SESSIONS } from '../../src/state/wearables/timeseries.js';
import { createClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');

describe('ECG voltage bounds', () => {
  it('a wide plain window answers the oldest sessions only; grouped pages cover them all', async () => {
    const c = createClient('fetch', { seed: 21, users: 3, usersElsewhere: 0 });
    const userId = (await c.get('/v2/user', { query: { limit: 1 } })).body.users[0].user_id as string;
    // A session every third day: 14 sessions in this window, the bound is 10.
    const query = { start_date: '2025-11-25', end_date: '2026-01-05' };
    const sessions = (await c.get(`/v2/summary/electrocardiogram/${userId}`, { query })).body.electrocardiogram as any[];
    expect(sessions.length).toBeGreaterThan(MAX_VOLTAGE_SESSIONS);
    const byStart = [...sessions].sort((a, b) => Date.parse(a.session_start) - Date.parse(b.session_start));
    const total = sessions.reduce((n, s) => n + s.voltage_sample_count, 0);

    const plain = await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage`, { query });
    expect(plain.status).toBe(200);
    const kept = byStart.slice(0, MAX_VOLTAGE_SESSIONS);
    expect(plain.body.length).toBe(kept.reduce((n, s) => n + s.voltage_sample_count, 0));
    expect(plain.body[0].timestamp).toBe(kept[0].session_start);
    const lastKept = Date.parse(kept[kept.length - 1].session_end);
    expect(plain.body.every((x: any) => Date.parse(x.timestamp) <= lastKept)).toBe(true);
    oas?.expectValid('ClientFacingElectrocardiogramVoltageTimeseries', plain.body[0]);

    let cursor: string | null = null;
    let seen = 0;
    for (let page = 0; page < 60; page++) {
      const res = await c.get(`/v2/timeseries/${userId}/electrocardiogram_voltage/grouped`, {
        query: { ...query, ...(cursor ? { next_cursor: cursor } : {}) },
      });
      expect(res.status).toBe(200);
      for (const groups of Object.values(res.body.groups) as any[]) for (const g of groups) seen += g.data.length;
      cursor = res.body.next_cursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(seen).toBe(total);
  });
});
