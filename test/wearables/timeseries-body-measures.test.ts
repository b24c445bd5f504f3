/**
 * Grouped `waist_circumference` and `body_temperature` (issue 14: they answered empty): the
 * providers that record them give data in a user's history, with the reference's units and
 * schemas; a provider that records neither gives no group.
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const q = { start_date: '2025-12-01', end_date: '2026-01-06' };

forEachAdapter('timeseries: waist circumference and body temperature', (adapter) => {
  it('Apple HealthKit records both; Oura neither', async () => {
    const c = createClient(adapter, { seed: 71, users: 1, usersElsewhere: 0 });
    const found = { waist_circumference: 0, body_temperature: 0 };
    for (let i = 0; i < 4; i++) {
      const userId = (await c.post('/v2/user', { client_user_id: `measures-${i}` })).body.user_id as string;
      for (const provider of ['apple_health_kit', 'oura'])
        expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
      await c.advance(3 * 3600);
      for (const [resource, schema, unit] of [
        ['waist_circumference', 'GroupedWaistCircumferenceResponse', 'cm'],
        ['body_temperature', 'GroupedBodyTemperatureResponse', '°C'],
      ] as const) {
        const res = await c.get(`/v2/timeseries/${userId}/${resource}/grouped`, { query: q });
        expect(res.status).toBe(200);
        oas?.expectValid(schema, res.body);
        expect(
          Object.keys(res.body.groups).every((p) => p === 'apple_health_kit'),
          resource,
        ).toBe(true);
        const data = Object.values(res.body.groups).flatMap((g: any) => g.flatMap((x: any) => x.data));
        for (const s of data) expect(s.unit).toBe(unit);
        if (resource === 'body_temperature') for (const s of data) expect(s.value).toBeGreaterThan(35.5);
        if (resource === 'waist_circumference') for (const s of data) expect(s.value).toBeGreaterThan(50);
        found[resource] += data.length;
        const oura = await c.get(`/v2/timeseries/${userId}/${resource}/grouped`, { query: { ...q, provider: 'oura' } });
        expect(oura.body.groups).toEqual({});
      }
    }
    // Weekly-ish temperatures, a waist measurement now and then: both have data over four people.
    expect(found.body_temperature).toBeGreaterThan(10);
    expect(found.waist_circumference).toBeGreaterThan(0);
  });
});
