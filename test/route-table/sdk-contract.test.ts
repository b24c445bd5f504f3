/**
 * SDK contract: every method of the official SDK (`@tryvital/vital-node`, read from its own
 * reference) whose endpoint the sandbox serves is called against a live sandbox, with the
 * reference's usage example and its placeholders replaced by ids from a seeded world, and what the
 * SDK parsed is checked: it resolves with a parsed value, or rejects with the SDK's typed API
 * error (whose body it parsed too). A parse failure (the SDK's schema refusing an answer) fails
 * the test. The methods the sandbox does not serve are printed. The deep, method-by-method checks
 * live in test/sdk-*.test.ts.
 */
import { VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, PATIENT } from '../support/lab-helpers.js';
import { endpointOf, runUsage, sdkMethods, servedBy, type SdkMethod } from '../support/sdk-methods.js';
import { startServer, type RunningServer } from '../support/server.js';

interface Planned {
  m: SdkMethod;
  route: string | undefined;
  endpoint: string;
}

let server: RunningServer;
let client: VitalClient;
let plan: Planned[] = [];
const ids: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const key = server.sandbox.credentials().teams[0]!.api_keys.sandbox;
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'x-vital-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

beforeAll(async () => {
  server = await startServer({ seed: 5, users: 3, feed: 'off' });
  const creds = server.sandbox.credentials();
  client = new VitalClient({ apiKey: creds.teams[0]!.api_keys.sandbox, baseUrl: server.baseUrl, maxRetries: 0 });
  const user = (await api('GET', '/v2/user?limit=1')).users[0];
  const providers = (await api('GET', `/v2/user/providers/${user.user_id}`)).providers;
  const tests = (await api('GET', '/v3/lab_tests')) as Array<{ id: string; method: string; auto_generated: boolean }>;
  const walkIn = tests.find((t) => t.method === 'walk_in_test' && !t.auto_generated)!;
  const order = (
    await api('POST', '/v3/order', { user_id: user.user_id, lab_test_id: walkIn.id, patient_details: PATIENT, patient_address: ADDRESS })
  ).order;
  const workouts = (await api('GET', `/v2/summary/workouts/${user.user_id}?start_date=2026-01-01`)).workouts ?? [];
  const sleeps = (await api('GET', `/v2/summary/sleep/${user.user_id}?start_date=2026-01-01`)).sleep ?? [];
  const devices = (await api('GET', `/v2/user/${user.user_id}/device`)) ?? [];
  for (const [key, value] of [
    ['workout_id', workouts[0]?.id],
    ['sleep_id', sleeps[0]?.id],
    ['device_id', devices[0]?.id],
  ] as const)
    if (value) ids[key] = value;
  Object.assign(ids, {
    user_id: user.user_id,
    client_user_id: user.client_user_id,
    provider: providers[0]?.slug ?? 'oura',
    order_id: order.id,
    lab_test_id: walkIn.id,
    team_id: creds.teams[0]!.team_id,
  });
  plan = [];
  for (const m of sdkMethods()) {
    const e = await endpointOf(m);
    plan.push({ m, route: e ? servedBy(e) : undefined, endpoint: e ? `${e.method} ${e.path}` : '(no request)' });
  }
}, 60_000);

afterAll(() => server.close());

/** The dates of the usage examples: two days, holding data of every kind the world has. */
const WINDOW = { start_date: '2026-01-02', end_date: '2026-01-04' };
/**
 * The ECG voltage methods read one day without a recording: the SDK parses a list in time
 * quadratic in its length, and one 30-second recording is 15,360 samples (about half of this
 * file's CPU). `test/wearables/sdk-wearables.test.ts` ('summaries, ECG with voltages, ...') parses a whole
 * recording through both methods and checks its sample count.
 */
const ECG_VOLTAGE_WINDOW = { start_date: '2026-01-02', end_date: '2026-01-03' };

/** The usage example with its placeholders replaced by the seeded world's ids and dates. */
function concrete(usage: string): string {
  let text = usage.replace(/\s*[A-Za-z]*[cC]ursor: "(next_)?cursor",?/g, '');
  const window = /client\.vitals\.electrocardiogramVoltage/.test(text) ? ECG_VOLTAGE_WINDOW : WINDOW;
  for (const [placeholder, value] of Object.entries({ ...ids, ...window })) {
    text = text.split(`"${placeholder}"`).join(JSON.stringify(value));
  }
  return text;
}

/** Deletions and cancellations run last, so they cannot take away what the others read. */
const destructive = (p: Planned) => /^(DELETE|PATCH) /.test(p.endpoint) || /delete|deregister|cancel/i.test(p.m.name);

describe('official SDK contract', () => {
  it('every served SDK method parses what the sandbox answers; the unserved ones are listed', async () => {
    const served = plan.filter((p) => p.route).sort((a, b) => Number(destructive(a)) - Number(destructive(b)));
    const unserved = plan.filter((p) => !p.route);
    const parsed: string[] = [];
    const apiErrors: string[] = [];
    const failures: string[] = [];
    for (const p of served) {
      try {
        await runUsage(concrete(p.m.usage), client);
        parsed.push(p.m.name);
      } catch (error) {
        if (error instanceof VitalError && typeof error.statusCode === 'number')
          apiErrors.push(`${p.m.name} (${p.endpoint}): ${error.statusCode}`);
        else failures.push(`${p.m.name} (${p.endpoint}): ${String(error).slice(0, 300)}`);
      }
    }
    console.log(
      `[sdk-contract] ${plan.length} SDK methods; ${served.length} served: ${parsed.length} parsed a success answer, ${apiErrors.length} a typed API error (example arguments the world does not satisfy)` +
        `\n[sdk-contract] typed API errors:\n  ${apiErrors.join('\n  ')}` +
        `\n[sdk-contract] ${unserved.length} not served:\n  ${unserved.map((p) => `${p.m.name} (${p.endpoint})`).join('\n  ')}`,
    );
    expect(failures).toEqual([]);
    expect(served.length).toBeGreaterThanOrEqual(101);
    expect(parsed.length).toBeGreaterThanOrEqual(Math.floor(served.length * 0.6));
  }, 300_000);
});
