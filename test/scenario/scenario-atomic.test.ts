/**
 * A scenario loads entirely or not at all (issue 17): references are checked before anything is
 * built, and a failure while applying leaves nothing observable behind (no subscriber event, no
 * webhook attempt, no file append, no partial world served). Also: reset keeps the seed, and a
 * file path given where the scenario's text belongs gets a pointed error.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import type { JournalEntry } from '../../src/engine/events.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { OutputGate } from '../../src/scenario/gate.js';
import { parseScenario, ScenarioError } from '../../src/scenario/parse.js';
import { createClient } from '../support/client.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';

const schemaFile = resolve(dirname(fileURLToPath(import.meta.url)), '../../scenarios/scenario.schema.json');

/** One request straight to the sandbox. */
async function call(sandbox: Sandbox, method: string, path: string, options: { body?: unknown; key?: string } = {}) {
  const res = await sandbox.dispatch({
    method,
    surface: 'data',
    path,
    query: {},
    headers: { 'content-type': 'application/json', ...(options.key ? { 'x-vital-api-key': options.key } : {}) },
    rawBody: options.body === undefined ? new Uint8Array(0) : new TextEncoder().encode(JSON.stringify(options.body)),
  });
  const text = new TextDecoder().decode(res.body);
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

/** What leaves the sandbox: in-process events and webhook attempts. */
function watchers() {
  const events: string[] = [];
  const sent: string[] = [];
  const transport: WebhookTransport = async (request) => {
    sent.push(`${request.url} ${JSON.parse(request.body).event_type}`);
    return { status: 200, headers: {}, body: '' };
  };
  return {
    events,
    sent,
    onEvent: (entry: JournalEntry) => events.push(entry.envelope.event_type),
    webhookTransport: transport,
    logger: () => undefined,
  };
}

/**
 * A scenario that fails late, after a webhook endpoint, users and connections exist: the default
 * world seeds 25 users in the first team, so the 26th user hits the sandbox's 50-user cap.
 */
const failsLate: ScenarioInput = {
  world: 'default',
  webhooks: [{ url: 'http://127.0.0.1:9/hook', filter_types: ['provider.connection.created'] }],
  users: Array.from({ length: 26 }, (_, i) => ({ client_user_id: `late-${i}`, connections: [{ provider: 'oura' as const }] })),
};
const LATE_ERROR = 'users[25]: the sandbox refused it (400): You have reached the maximum of 50 Sandbox users';

describe('references checked before anything is built', () => {
  it('refuses unknown teams, a seeded team in another region, and a status the order never reaches, naming the path', () => {
    const nope = {
      users: [
        { client_user_id: 'x', connections: [{ provider: 'oura' as const }] },
        { client_user_id: 'y', team: 'Nope' },
      ],
    };
    expect(() => createSandbox({ scenario: nope })).toThrow(
      'users[1].team: unknown team "Nope" (declare it under teams, or use "Sandbox Team US", "Sandbox Team EU")',
    );
    expect(() => parseScenario({ teams: [{ name: 'Mine' }], webhooks: [{ team: 'Yours', receiver: 'r' }] })).toThrow(
      'webhooks[0].team: unknown team "Yours" (declare it under teams, or use "Sandbox Team US", "Sandbox Team EU", "Mine")',
    );
    expect(
      parseScenario({
        teams: [{ name: 'Mine' }],
        users: [
          { client_user_id: 'a', team: 'Mine' },
          { client_user_id: 'b', team: 'Sandbox Team EU' },
        ],
      }).users,
    ).toHaveLength(2);
    expect(() => parseScenario({ teams: [{ name: 'Sandbox Team EU', region: 'us' }] })).toThrow(
      'teams[0].region: the seeded team "Sandbox Team EU" is in region eu; a team\'s region cannot change',
    );
    expect(() =>
      parseScenario({ users: [{ client_user_id: 'a', lab_orders: [{ method: 'walk_in_test', status: 'transit_lab' }] }] }),
    ).toThrow(
      'users[0].lab_orders[0].status: a walk_in_test order on the happy path never reaches "transit_lab" (it goes through ordered, requisition_created, partial_results, completed, or is cancelled)',
    );
    expect(() =>
      parseScenario({
        users: [{ client_user_id: 'a', lab_orders: [{ method: 'testkit', path: 'lost_in_transit', status: 'completed' }] }],
      }),
    ).toThrow('users[0].lab_orders[0].status: a testkit order on the lost_in_transit path never reaches "completed"');
    expect(() =>
      parseScenario({ users: [{ client_user_id: 'a', lab_orders: [{ method: 'testkit', status: 'completed.walk_in_test.completed' }] }] }),
    ).toThrow('users[0].lab_orders[0].status: "completed.walk_in_test.completed" is a walk_in_test status, not testkit');
  });

  it('keeps the unknown-provider message, and the published JSON Schema refuses "fitbitt" and knows the start status', () => {
    expect(() => parseScenario({ users: [{ client_user_id: 'c', connections: [{ provider: 'fitbitt' }] }] })).toThrow(
      'users[0].connections[0].provider: unknown provider "fitbitt" (demo providers: apple_health_kit, fitbit, freestyle_libre, oura)',
    );
    const validate = new Ajv2020({ strict: false, logger: false }).compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
    expect(validate({ users: [{ client_user_id: 'c', connections: [{ provider: 'fitbitt' }] }] })).toBe(false);
    expect(
      validate({
        users: [
          {
            client_user_id: 'c',
            connections: [{ provider: 'fitbit' }],
            lab_orders: [{ method: 'walk_in_test', status: 'partial_results' }],
          },
        ],
      }),
    ).toBe(true);
    expect(validate({ users: [{ client_user_id: 'c', lab_orders: [{ status: 'sample_with_lab.walk_in_test.partial_results' }] }] })).toBe(
      true,
    );
    expect(validate({ users: [{ client_user_id: 'c', lab_orders: [{ status: 'halfway' }] }] })).toBe(false);
  });

  it('refuses an unknown lab test by path before any user exists', async () => {
    const w = watchers();
    const sandbox = createSandbox({ world: 'empty', ...w });
    const bad = {
      webhooks: [{ url: 'http://127.0.0.1:9/hook' }],
      users: [
        {
          client_user_id: 'a',
          connections: [{ provider: 'oura' as const }],
          lab_orders: [{ lab_test: '00000000-0000-4000-8000-000000000000' }],
        },
      ],
    };
    await expect(sandbox.loadScenario(bad)).rejects.toThrow(
      'users[0].lab_orders[0].lab_test: team "Sandbox Team US" has no lab test "00000000-0000-4000-8000-000000000000"',
    );
    await sandbox.settle();
    expect([w.events, w.sent]).toEqual([[], []]);
  });

  it('says to pass the text or an object when given a file path', () => {
    const hint =
      '(file): a scenario is an object, not the string "scenarios/empty-team.yaml": pass the file\'s text or an object (to load a file by its path, use startSandbox({ scenario: path }) or readScenarioFile(path)';
    expect(() => createSandbox({ scenario: 'scenarios/empty-team.yaml' })).toThrow(hint);
    expect(() => parseScenario('x.yaml')).toThrow(ScenarioError);
    // loadScenario always answers with a promise, a parse error included.
    const loading = createSandbox({ world: 'empty' }).loadScenario({ users: [{ client_user_id: 'a', team: 'Nope' }] });
    return expect(loading).rejects.toThrow('users[0].team: unknown team "Nope"');
  });
});

describe('a scenario that fails while applying loads nothing', () => {
  it('createSandbox: ready rejects naming the path, no event or webhook leaves, every request answers 503 naming it, and loading another recovers', async () => {
    const w = watchers();
    const sandbox = createSandbox({ ...w, scenario: failsLate });
    await expect(sandbox.ready).rejects.toThrow(LATE_ERROR);
    await sandbox.settle();
    expect([w.events, w.sent]).toEqual([[], []]);
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
    for (const [method, path] of [
      ['GET', '/v2/user'],
      ['GET', '/_sandbox/clock'],
      ['GET', '/_sandbox/events'],
    ] as const) {
      const res = await call(sandbox, method, path, { key });
      expect(res.status, path).toBe(503);
      expect(res.body.detail).toContain(`The sandbox's scenario failed to load, so the sandbox serves no world: ${LATE_ERROR}`);
    }
    await expect(sandbox.advance('1h')).rejects.toThrow(LATE_ERROR);
    // The same scenario fails again on reset (still nothing leaks); another scenario, or none, recovers.
    sandbox.reset();
    await expect(sandbox.ready).rejects.toThrow(LATE_ERROR);
    expect((await call(sandbox, 'DELETE', '/_sandbox/scenario')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v2/user', { key })).body.total).toBe(25);
    await sandbox.settle();
    expect([w.events, w.sent]).toEqual([[], []]);
  });

  it('loadScenario / PUT: the world, journal, subscribers and receivers see nothing of it; a good one then delivers', async () => {
    const w = watchers();
    const sandbox = createSandbox({ usersElsewhere: 0, ...w });
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
    const journal = (await call(sandbox, 'GET', '/_sandbox/events')).body.events.length;
    const put = await call(sandbox, 'PUT', '/_sandbox/scenario', { body: failsLate });
    expect(put).toEqual({ status: 422, body: { detail: [{ loc: ['body'], msg: LATE_ERROR, type: 'value_error' }] } });
    await expect(sandbox.loadScenario(failsLate)).rejects.toThrow(LATE_ERROR);
    await sandbox.settle();
    expect([w.events, w.sent]).toEqual([[], []]);
    expect((await call(sandbox, 'GET', '/v2/user', { key })).body.total).toBe(25);
    expect((await call(sandbox, 'GET', '/_sandbox/events')).body.events.length).toBe(journal);
    expect(sandbox.scenario).toBeUndefined();
    // What the gate held goes out once a scenario applied whole, in order.
    await sandbox.loadScenario({ ...failsLate, users: failsLate.users?.slice(0, 2) });
    expect(w.sent).toEqual(['http://127.0.0.1:9/hook provider.connection.created', 'http://127.0.0.1:9/hook provider.connection.created']);
    expect(w.events.filter((t) => t === 'provider.connection.created')).toHaveLength(2);
  });

  it('the gate holds subscriber events, attempts and file appends in order, releases them or drops them', async () => {
    const out: string[] = [];
    const open = new OutputGate(true);
    const transport = open.transport(async (r) => (out.push(`send ${r.body}`), { status: 200, headers: {}, body: '' }));
    const sink = open.sink({ append: async (name, text) => void out.push(`append ${name} ${text}`) });
    const sub = open.subscriber([(e) => out.push(`event ${e.seq}`)]);
    sub({ seq: 1 } as JournalEntry, {} as never);
    const sending = transport({ url: 'u', method: 'POST', headers: {}, body: 'b', signal: new AbortController().signal });
    const appending = sink?.append('f', 'x');
    expect(out).toEqual([]);
    open.release();
    await Promise.all([sending, appending]);
    expect(out).toEqual(['event 1', 'send b', 'append f x']);
    const dropped = new OutputGate(true);
    const lost = dropped.transport(async () => ({ status: 200, headers: {}, body: '' }))({
      url: 'u',
      method: 'POST',
      headers: {},
      body: 'b',
      signal: new AbortController().signal,
    });
    dropped.discard();
    await expect(lost).rejects.toThrow('the scenario that caused it failed to load');
  });
});

describe('reset and the seed', () => {
  it('a reset without a seed keeps the last seed given (credentials change only with the seed); a scenario with its own seed wins', async () => {
    const sandbox = createSandbox({ world: 'empty' });
    const first = sandbox.credentials().management_key;
    sandbox.reset(9);
    const nine = sandbox.credentials().management_key;
    expect(nine).not.toBe(first);
    sandbox.reset();
    expect([sandbox.world.seed, sandbox.credentials().management_key]).toEqual([9, nine]);
    expect((await call(sandbox, 'POST', '/_sandbox/reset', { body: {} })).status).toBe(200);
    expect(sandbox.credentials().management_key).toBe(nine);
    await sandbox.loadScenario({ users: [{ client_user_id: 'a' }] });
    expect(sandbox.world.seed).toBe(9);
    await sandbox.loadScenario({ seed: 7, users: [{ client_user_id: 'a' }] });
    sandbox.reset();
    expect(sandbox.world.seed).toBe(7);
    sandbox.reset(1);
    expect(sandbox.credentials().management_key).toBe(first);
  });
});

describe('the org plan', () => {
  it('stays as seeded when a scenario creates a team without plan; `plan` sets it after the teams exist', async () => {
    const plan = async (s: Sandbox) => ((await call(s, 'GET', '/_sandbox/orgs')).body.orgs as Array<{ plan: string }>)[0]?.plan;
    const kept = createSandbox({ scenario: { teams: [{ name: 'New team' }] } });
    await kept.ready;
    expect(kept.credentials().teams.map((t) => t.name)).toContain('New team');
    expect(await plan(kept)).toBe('premium');
    const set = createSandbox({ scenario: { plan: 'launch', teams: [{ name: 'New team' }] } });
    await set.ready;
    expect(set.credentials().teams.map((t) => t.name)).toContain('New team');
    expect(await plan(set)).toBe('launch');
  });
});

describe('a sandbox whose scenario failed, through the adapters', () => {
  it('express and msw answer the same 503 naming the error, and DELETE /_sandbox/scenario recovers on both', async () => {
    const seen: string[] = [];
    for (const adapter of ['express', 'msw'] as const) {
      const c = createClient(adapter, { ...watchers(), scenario: failsLate });
      await expect(c.sandbox.ready).rejects.toThrow(LATE_ERROR);
      const res = await c.get('/v2/user');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.body.detail).toContain(LATE_ERROR);
      seen.push(res.text);
      expect((await c.delete('/_sandbox/scenario')).status).toBe(200);
      expect((await c.get('/v2/user')).body.total).toBe(25);
    }
    expect(seen[1]).toBe(seen[0]);
  });
});
