/**
 * The official SDK (`@tryvital/vital-node`) against HTTP faults (issue 28). The SDK retries 408,
 * 429 and 5xx answers `maxRetries` times (default 2), waiting `Retry-After` seconds when the
 * answer gives a positive one, else 1 s, 2 s, ... with jitter (core/fetcher/requestWithRetries.js).
 * Its waits are wall-time `setTimeout`s: the test records each wait it asks for and lets it pass at
 * once, so it stays fast and never depends on timing.
 */
import { VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FAULT_BODIES } from '../../src/engine/faults.js';
import { startServer, type RunningServer } from '../support/server.js';

let server: RunningServer;
let userId: string;
const waits: number[] = [];

beforeAll(async () => {
  server = await startServer({ seed: 7, users: 2, usersElsewhere: 1, feed: 'off' });
  const key = server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
  const users = (await (await fetch(`${server.baseUrl}/v2/user`, { headers: { 'x-vital-api-key': key } })).json()) as {
    users: Array<{ user_id: string }>;
  };
  userId = users.users[0]?.user_id ?? '';
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  vi.restoreAllMocks();
  waits.length = 0;
});

/**
 * The SDK's retry waits (0.5 s to 30 s) are recorded and pass at once; other timers (its 60 s
 * request timeout among them) run as asked.
 */
function fastRetries(): void {
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...args: unknown[]) => {
    if (typeof ms === 'number' && ms >= 500 && ms < 30_000) {
      waits.push(ms);
      return real(fn, 0, ...args);
    }
    return real(fn, ms, ...args);
  }) as typeof setTimeout);
}

function client(maxRetries?: number): VitalClient {
  return new VitalClient({
    apiKey: server.sandbox.credentials().teams[0]?.api_keys.sandbox ?? '',
    baseUrl: server.baseUrl,
    ...(maxRetries === undefined ? {} : { maxRetries }),
  });
}

async function addFault(rule: unknown): Promise<{ id: string }> {
  const res = await fetch(`${server.baseUrl}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

const rules = async () => ((await (await fetch(`${server.baseUrl}/_sandbox/faults`)).json()) as { faults: unknown[] }).faults;

describe('the official SDK against HTTP faults', () => {
  it('recovers from two faulted 429 answers, waiting the Retry-After they give', async () => {
    fastRetries();
    await addFault({ match: { route: 'users.get' }, action: { status: 429, headers: { 'retry-after': '2' } }, times: 2 });
    const user = await client().user.get(userId);
    expect(user.userId).toBe(userId);
    expect(waits).toEqual([2000, 2000]);
    expect(await rules()).toEqual([]);
  });

  it('recovers from two faulted 5xx answers, with its own backoff', async () => {
    fastRetries();
    await addFault({ match: { method: 'GET', path: '/v2/user/{user_id}' }, action: { status: 502 }, times: 1 });
    await addFault({ match: { method: 'GET', path: '/v2/user/{user_id}' }, action: { status: 503 }, times: 1 });
    expect((await client().user.get(userId)).userId).toBe(userId);
    expect(waits).toHaveLength(2);
    expect(waits[0]).toBeGreaterThanOrEqual(900);
    expect(waits[1]).toBeGreaterThanOrEqual(1800);
  });

  it('fails after more faulted answers than its retries, with the real error body', async () => {
    fastRetries();
    await addFault({ match: { route: 'users.get' }, action: { status: 503 }, times: 3 });
    const error = await client()
      .user.get(userId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VitalError);
    expect((error as VitalError).statusCode).toBe(503);
    expect((error as VitalError).body).toEqual({ detail: FAULT_BODIES[503] });
    expect(waits).toHaveLength(2);
    expect(await rules()).toEqual([]);
  });

  it('with maxRetries 1, two faulted answers are one too many', async () => {
    fastRetries();
    await addFault({ match: { route: 'users.get' }, action: { status: 429, headers: { 'retry-after': '1' } }, times: 3 });
    const error = await client(1)
      .user.get(userId)
      .catch((e: unknown) => e);
    expect((error as VitalError).statusCode).toBe(429);
    expect(waits).toEqual([1000]);
    // The rule has one faulted answer left: the next call gets it, then the real answer.
    expect(await rules()).toHaveLength(1);
    expect((await client(1).user.get(userId)).userId).toBe(userId);
  });

  it('a dropped connection is a network error to the SDK (it does not retry those)', async () => {
    await addFault({ match: { route: 'users.get' }, action: { drop: true }, times: 1 });
    const error = await client(0)
      .user.get(userId)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((await client(0).user.get(userId)).userId).toBe(userId);
  });
});
