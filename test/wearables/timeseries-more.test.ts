/**
 * The timeseries resources of issue 14 (fall, inhaler_usage, spirometry, wheelchair_push,
 * sleep_apnea_alert, note, insulin_injection) and body_temperature for Apple HealthKit, on both
 * adapters: real sample schemas and units, person traits (most users have none), consistency
 * (FEV1 below FVC of the same blow, insulin type and delivery mode agree, wheelchair pushes only
 * for wheelchair users).
 */
import { expect, it } from 'vitest';
import { createClient, forEachAdapter } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';

const oas = oasValidator('data');
const q = { start_date: '2025-12-06', end_date: '2026-01-05' };
const SCHEMA: Record<string, string> = {
  fall: 'GroupedFallResponse',
  inhaler_usage: 'GroupedInhalerUsageResponse',
  peak_expiratory_flow_rate: 'GroupedPeakExpiratoryFlowRateResponse',
  forced_vital_capacity: 'GroupedForcedVitalCapacityResponse',
  forced_expiratory_volume_1: 'GroupedForcedExpiratoryVolume1Response',
  wheelchair_push: 'GroupedWheelchairPushResponse',
  sleep_apnea_alert: 'GroupedSleepApneaAlertResponse',
  note: 'GroupedNoteResponse',
  insulin_injection: 'GroupedInsulinInjectionResponse',
  body_temperature: 'GroupedBodyTemperatureResponse',
};

forEachAdapter('timeseries: issue 14 resources', (adapter) => {
  it('serves each resource for the people and providers that record it', async () => {
    const c = createClient(adapter, { seed: 14, users: 1, usersElsewhere: 0 });
    const found: Record<string, number> = {};
    for (let i = 0; i < 8; i++) {
      const userId = (await c.post('/v2/user', { client_user_id: `more-${i}` })).body.user_id as string;
      for (const provider of ['apple_health_kit', 'freestyle_libre'])
        expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
      await c.advance(3 * 3600);
      const data: Record<string, any[]> = {};
      for (const resource of Object.keys(SCHEMA)) {
        const res = await c.get(`/v2/timeseries/${userId}/${resource}/grouped`, { query: q });
        expect(res.status).toBe(200);
        oas?.expectValid(SCHEMA[resource] as string, res.body);
        data[resource] = Object.values(res.body.groups).flatMap((g: any) => g.flatMap((x: any) => x.data));
        found[resource] = (found[resource] ?? 0) + (data[resource]?.length ?? 0);
      }
      const fvc = new Map((data.forced_vital_capacity ?? []).map((s) => [s.timestamp, s.value]));
      for (const s of data.forced_expiratory_volume_1 ?? []) expect(s.value).toBeLessThan(fvc.get(s.timestamp));
      expect((data.forced_expiratory_volume_1 ?? []).length).toBe(fvc.size);
      for (const s of data.insulin_injection ?? []) {
        expect(s.unit).toBe('unit');
        expect(s.delivery_mode).toBe(s.type === 'long_acting' ? 'basal' : 'bolus');
      }
      for (const s of data.note ?? []) {
        expect(typeof s.value).toBe('string');
        expect(s.tags).toHaveLength(1);
      }
      const profile = await c.get(`/v2/summary/profile/${userId}`, { query: { provider: 'apple_health_kit' } });
      expect((data.wheelchair_push ?? []).length > 0).toBe(profile.body.wheelchair_use === true);
      expect((data.peak_expiratory_flow_rate ?? []).every((s) => s.unit === 'L/min' && s.value > 100)).toBe(true);
    }
    // Over eight people, every resource but the rare ones (falls, wheelchair, apnea) has data.
    for (const r of [
      'inhaler_usage',
      'peak_expiratory_flow_rate',
      'forced_vital_capacity',
      'note',
      'insulin_injection',
      'body_temperature',
    ])
      expect(found[r], r).toBeGreaterThan(0);
  });

  it('a provider that does not record a resource answers no group for it', async () => {
    const c = createClient(adapter, { seed: 14, users: 1, usersElsewhere: 0 });
    const userId = (await c.post('/v2/user', { client_user_id: 'more-oura' })).body.user_id as string;
    await c.post('/v2/link/connect/demo', { user_id: userId, provider: 'oura' });
    await c.advance(3 * 3600);
    for (const resource of Object.keys(SCHEMA)) {
      const res = await c.get(`/v2/timeseries/${userId}/${resource}/grouped`, { query: q });
      expect(res.body.groups).toEqual({});
    }
  });
});
