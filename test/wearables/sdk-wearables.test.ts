/**
 * Contract test: the official SDK (@tryvital/vital-node 3.1.551) parses every wearable
 * endpoint's answer: providers, connections, demo connect, introspection, summaries (activity,
 * sleep, body, workouts, ECG), workout streams, ECG voltages and every timeseries row (raw and
 * grouped), lab-derived vitals (cholesterol, IgE, IgG), profile, devices, raw summaries, sleep cycles and
 * streams, meals, menstrual cycles; every method of the wearable resources is served. The SDK throws on a missing required key or a null where a value is required.
 */
import type { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMESERIES } from '../../src/fixtures/wearables/timeseries-table.js';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';
import { completedNumericOrder } from './sdk-lab-order.js';

let server: RunningServer;
let client: VitalClient;
let seeded: string;
let demo: string;

const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 11 }));
  const users = await client.user.getAll({ limit: 1 });
  seeded = users.users[0]?.userId ?? '';
  demo = (await client.user.create({ clientUserId: 'sdk-wearables-demo', fallbackTimeZone: 'Europe/Berlin' })).userId;
  for (const provider of ['apple_health_kit', 'oura', 'fitbit', 'freestyle_libre'] as const) {
    const res = await client.link.connectDemoProvider({ userId: demo, provider });
    expect(res.success).toBe(true);
  }
  await server.sandbox.advance(6 * 3600);
});

afterAll(async () => {
  await server.close();
});

describe('official SDK parses the wearable endpoints', () => {
  it('providers, connections, introspection', async () => {
    const providers = await client.providers.getAll();
    expect(providers.map((p) => p.slug)).toEqual(
      expect.arrayContaining(['oura', 'fitbit', 'apple_health_kit', 'freestyle_libre', 'garmin']),
    );
    const connected = await client.user.getConnectedProviders(demo);
    expect(connected.providers?.map((p) => p.slug).sort()).toEqual(['apple_health_kit', 'fitbit', 'freestyle_libre', 'oura']);
    const user = await client.user.get(demo);
    expect(user.connectedSources.map((s) => s.provider.slug).sort()).toEqual(['apple_health_kit', 'fitbit', 'freestyle_libre', 'oura']);
    const pulls = await client.introspect.getUserHistoricalPulls({ userId: demo });
    expect(Object.keys(pulls.data[0]?.provider ?? {}).sort()).toEqual(['apple_health_kit', 'fitbit', 'freestyle_libre', 'oura']);
    expect(pulls.data[0]?.provider.oura?.pulled.sleep?.status).toBe('success');
    const page = await client.introspect.getUserHistoricalPulls({ userLimit: 5 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.nextCursor).toBeTruthy();
    const resources = await client.introspect.getUserResources({ userLimit: 3 });
    expect(resources.data.length).toBeGreaterThan(0);
  });

  it('summaries, ECG with voltages, workouts with streams', async () => {
    const q = { startDate: '2025-12-10', endDate: '2026-01-05' };
    expect((await client.activity.get(demo, q)).activity.length).toBeGreaterThan(10);
    expect((await client.sleep.get(demo, q)).sleep.length).toBeGreaterThan(10);
    expect((await client.body.get(demo, q)).body.length).toBeGreaterThan(3);
    const ecg = await client.electrocardiogram.get(seeded, { startDate: '2025-12-01', endDate: '2026-01-05' });
    expect(ecg.electrocardiogram.length).toBeGreaterThan(3);
    const session = ecg.electrocardiogram[0];
    if (!session) throw new Error('no ECG');
    // The first second of the session: the SDK validates lists in quadratic time (about 3 s of
    // CPU for a whole 30-second session), and that every sample of a session is served is
    // checked in ecg-traces.test.ts and ecg-bounds.test.ts.
    const start = new Date(session.sessionStart).getTime();
    const window = { startDate: new Date(start).toISOString(), endDate: new Date(start + 999).toISOString() };
    const volts = await client.vitals.electrocardiogramVoltage(seeded, window);
    expect(volts.length).toBe(session.samplingFrequencyHz);
    expect(volts[0]?.timestamp.getTime()).toBe(start);
    const grouped = await client.vitals.electrocardiogramVoltageGrouped(seeded, window);
    expect(grouped.groups.apple_health_kit?.[0]?.data.length).toBe(session.samplingFrequencyHz);
    const workouts = await client.workouts.get(seeded, { startDate: '2025-12-01', endDate: '2026-01-05' });
    expect(workouts.workouts.length).toBeGreaterThan(0);
    const stream = await client.workouts.getByWorkoutId(workouts.workouts[0]?.id ?? '');
    expect(stream.time?.length).toBeGreaterThan(10);
    const demoWorkouts = await client.workouts.get(demo, q);
    const fitbitWorkout = demoWorkouts.workouts.find((w) => w.source.provider === 'fitbit');
    expect(fitbitWorkout, 'the demo user has a fitbit workout').toBeDefined();
    expect((await client.workouts.getByWorkoutId(fitbitWorkout?.id ?? '')).time ?? []).toEqual([]);
  });

  it('profile, devices and raw summaries', async () => {
    const q = { startDate: '2025-12-20', endDate: '2026-01-05' };
    const profile = await client.profile.get(demo);
    expect(profile.userId).toBe(demo);
    expect(profile.height).toBeGreaterThan(150);
    const rawProfile = await client.profile.getRaw(demo, { provider: 'fitbit' });
    expect(rawProfile.profile.source.slug).toBe('fitbit');
    const devices = await client.devices.getRaw(demo);
    expect(devices.devices.length).toBeGreaterThan(0);
    // demo data is summaries only (api-facts H): raw records come from a seeded user's connections
    expect((await client.activity.getRaw(demo, q)).activity).toEqual([]);
    expect((await client.activity.getRaw(seeded, q)).activity.length).toBeGreaterThan(10);
    expect((await client.sleep.getRaw(seeded, q)).sleep.length).toBeGreaterThan(5);
    const workouts = await client.workouts.getRaw(seeded, { startDate: '2025-12-01', endDate: '2026-01-05' });
    expect(workouts.workouts.length).toBeGreaterThan(0);
    expect(workouts.workouts[0]?.sportId).toBe(workouts.workouts[0]?.sport.id);
    const cycles = await client.sleepCycle.get(demo, q);
    expect(cycles.sleepCycle.length).toBeGreaterThan(5);
    const sleeps = await client.sleep.get(demo, { ...q, provider: 'oura' });
    const stream = await client.sleep.getStreamBySleepId(sleeps.sleep[0]?.id ?? '');
    expect(stream.hypnogram ?? []).toEqual([]); // a demo user's streams are empty
    const seededSleeps = await client.sleep.get(seeded, q);
    const seededStream = await client.sleep.getStreamBySleepId(seededSleeps.sleep[0]?.id ?? '');
    expect(seededStream.heartrate?.length).toBeGreaterThan(10);
    const meals = await client.meal.get(demo, q);
    expect(meals.meals.length).toBeGreaterThan(10);
    expect(meals.meals[0]?.energy?.unit).toBe('kcal');
    const cyclesOfDemo = await client.menstrualCycle.get(demo, q);
    expect(Array.isArray(cyclesOfDemo.menstrualCycle)).toBe(true);
  });

  it('every timeseries row, raw and grouped', async () => {
    const vitals = client.vitals as unknown as Record<string, (id: string, q: Record<string, string>) => Promise<unknown>>;
    // Three days: the rows are parsed for their shape (the SDK's list parsing is quadratic in
    // length); the CGM count below reads eight days.
    const q = { startDate: '2026-01-03', endDate: '2026-01-05' };
    let nonEmpty = 0;
    for (const row of TIMESERIES) {
      const name = camel(row.path);
      if (row.raw) {
        expect(typeof vitals[name], name).toBe('function');
        const list = (await vitals[name]?.call(client.vitals, demo, q)) as unknown[];
        expect(Array.isArray(list), name).toBe(true);
        if (list.length) nonEmpty++;
      }
      expect(typeof vitals[`${name}Grouped`], `${name}Grouped`).toBe('function');
      const grouped = (await vitals[`${name}Grouped`]?.call(client.vitals, demo, q)) as { groups: Record<string, unknown> };
      expect(typeof grouped.groups).toBe('object');
    }
    expect(nonEmpty).toBeGreaterThan(10);
    const steps = await client.vitals.steps(demo, q);
    expect(steps.every((s) => s.unit === 'count')).toBe(true);
    const glucose = await client.vitals.glucose(demo, { startDate: '2025-12-28', endDate: '2026-01-05', provider: 'freestyle_libre' });
    expect(glucose.length).toBeGreaterThan(8 * 288 - 10);
  });

  it('lab-derived vitals: cholesterol (and its deprecated sub-paths), IgE, IgG, raw and grouped', async () => {
    const tests = await client.labTests.get({ collectionMethod: 'walk_in_test' });
    const order = await completedNumericOrder(client, demo, tests[0]?.id ?? '');
    const q = { startDate: '2025-12-01' };
    const all = await client.vitals.cholesterol(demo, q);
    expect(all.map((s) => s.type).sort()).toEqual(['cholesterol/hdl', 'cholesterol/ldl', 'cholesterol/total', 'cholesterol/triglycerides']);
    expect(all.every((s) => s.unit === 'mmol/L' && s.timestamp instanceof Date)).toBe(true);
    for (const [kind, list] of [
      ['total', await client.vitals.cholesterolTotal(demo, q)],
      ['ldl', await client.vitals.cholesterolLdl(demo, q)],
      ['hdl', await client.vitals.cholesterolHdl(demo, q)],
      ['triglycerides', await client.vitals.cholesterolTriglycerides(demo, q)],
    ] as const) {
      expect(list.map((s) => s.type)).toEqual([`cholesterol/${kind}`]);
    }
    const grouped = await client.vitals.cholesterolGrouped(demo, q);
    const lab = order.labTest.lab?.slug ?? '';
    expect(grouped.groups[lab]?.[0]?.source.provider).toBe(lab);
    expect(grouped.groups[lab]?.[0]?.data).toHaveLength(4);
    expect(grouped.nextCursor ?? null).toBeNull();
    expect(await client.vitals.ige(demo, q)).toEqual([]);
    expect(await client.vitals.igg(demo, q)).toEqual([]);
    expect((await client.vitals.igeGrouped(demo, q)).groups).toEqual({});
    expect((await client.vitals.iggGrouped(demo, q)).groups).toEqual({});
  });

  it('every method of the wearable SDK resources is served', async () => {
    // The resources of issue 14's done-when list: each method is exercised in this file.
    const exercised: Record<string, string[]> = {
      profile: ['get', 'getRaw'],
      sleep: ['get', 'getRaw', 'getStreamBySleepId'],
      activity: ['get', 'getRaw'],
      body: ['get', 'getRaw'],
      meal: ['get'],
      menstrualCycle: ['get'],
      sleepCycle: ['get'],
      workouts: ['get', 'getRaw', 'getByWorkoutId'],
    };
    for (const [resource, methods] of Object.entries(exercised)) {
      const obj = (client as unknown as Record<string, object>)[resource] as object;
      const own = Object.getOwnPropertyNames(Object.getPrototypeOf(obj)).filter((m) => m !== 'constructor' && !m.startsWith('_'));
      expect(own.sort(), resource).toEqual([...methods].sort());
    }
    const vitals = Object.getOwnPropertyNames(Object.getPrototypeOf(client.vitals)).filter(
      (m) => m !== 'constructor' && !m.startsWith('_'),
    );
    const rows = new Set(TIMESERIES.flatMap((r) => (r.raw ? [camel(r.path), `${camel(r.path)}Grouped`] : [`${camel(r.path)}Grouped`])));
    const labs = [
      'ige',
      'igg',
      'igeGrouped',
      'iggGrouped',
      'cholesterol',
      'cholesterolGrouped',
      'cholesterolTotal',
      'cholesterolLdl',
      'cholesterolHdl',
      'cholesterolTriglycerides',
    ];
    const special = ['electrocardiogramVoltage', 'electrocardiogramVoltageGrouped'];
    expect(vitals.filter((m) => !rows.has(m) && !labs.includes(m) && !special.includes(m))).toEqual([]);
  });
});
