/**
 * The inspector's view logic without a browser: formatting (times with dates, names and ranges a
 * world may leave empty), paging, the "API requests only" switch, the search across kept bodies,
 * copy as curl and replay, the per-user timeline's order and collapsed pulls, fault rule editing,
 * redraws one at a time (an answer read before a reset is never drawn after the reset's redraw).
 */
import { describe, expect, it } from 'vitest';
import { ApiFailure, keysMovedUnder, session } from '../../src/inspector/api.js';
import { curlOf, replayOf } from '../../src/inspector/curl.js';
import { cell, patientName, qs, rangeText, statusClass, time, timeRange } from '../../src/inspector/format.js';
import { foundIn, isApiRequest, pageOf, searchBodies } from '../../src/inspector/paging.js';
import { oneAtATime } from '../../src/inspector/redraw.js';
import { collapsePulls, orderTimeline, userTimeline } from '../../src/inspector/timeline.js';
import type { Credentials, JournalRequest } from '../../src/inspector/types.js';
import { ruleBody } from '../../src/inspector/views-steer.js';

const creds: Credentials = {
  base_url: 'http://127.0.0.1:4250',
  management_url: 'http://127.0.0.1:4250/management',
  org_id: 'org',
  management_key: 'sk_org_secret',
  teams: [{ name: 'Team A', team_id: 'team-a', api_keys: { sandbox: 'sk_us_sandboxkey', production: 'sk_us_prodkey' } }],
};

function entry(over: Partial<JournalRequest> = {}): JournalRequest {
  return {
    id: 'req_1',
    seq: 1,
    sandbox_time: '2026-01-05T09:00:00.000Z',
    duration_ms: 1,
    method: 'POST',
    surface: 'data',
    path: '/v2/user',
    query: '',
    route_id: 'users.create',
    team_id: 'team-a',
    environment: 'sandbox',
    status: 200,
    request: {
      headers: {
        host: '127.0.0.1:4250',
        'x-vital-api-key': 'sk_us_sa***',
        'content-type': 'application/json',
        'user-agent': 'node',
        'sec-fetch-mode': 'cors',
      },
      body: '{"client_user_id":"it\'s me"}',
      body_bytes: 27,
    },
    response: { body: '{"user_id":"u1"}', body_bytes: 16 },
    ...over,
  };
}

describe('formatting', () => {
  it('times keep their date; empty values say so', () => {
    expect(time('2026-01-05T09:00:00.000Z')).toBe('2026-01-05 09:00:00');
    expect(time(null)).toBe('');
    expect(timeRange(null, '2026-01-05T09:00:00Z')).toBe('(open) to 2026-01-05 09:00:00');
    expect(timeRange(undefined, null)).toBe('-');
    expect(cell(null)).toBe('-');
    expect(cell({ a: 1 })).toBe('{"a":1}');
  });

  it('a test-kit order with patient_details null has no name, not a crash', () => {
    expect(patientName(null)).toBe('-');
    expect(patientName({ first_name: 'Ada', last_name: null })).toBe('Ada');
    expect(patientName({ first_name: 'Ada', last_name: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('a range with one bound reads as such (never "null to 199")', () => {
    expect(rangeText(null, 199)).toBe('below 199');
    expect(rangeText(40, null)).toBe('above 40');
    expect(rangeText(3.5, 5.1)).toBe('3.5 to 5.1');
    expect(rangeText(undefined, undefined)).toBe('');
  });

  it('query strings skip empty values; statuses get their class', () => {
    expect(qs({ a: 1, b: '', c: null, d: undefined, e: 'x y' })).toBe('?a=1&e=x%20y');
    expect(qs({})).toBe('');
    expect([statusClass(200), statusClass(404), statusClass(503)]).toEqual(['s2', 's4', 's5']);
  });
});

describe('paging, the API-only switch and the body search', () => {
  it('pages of a list; a page past the end shows the last', () => {
    const all = Array.from({ length: 120 }, (_, i) => i);
    expect(pageOf(all, 0)).toMatchObject({ page: 0, pages: 3, first: 1, last: 50, total: 120 });
    expect(pageOf(all, 2).items).toEqual(all.slice(100));
    expect(pageOf(all, 9)).toMatchObject({ page: 2, first: 101, last: 120 });
    expect(pageOf([], 0)).toMatchObject({ page: 0, pages: 1, first: 0, last: 0, items: [] });
  });

  it('API requests only: not the control plane, test receivers, docs, the favicon or the pointer page', () => {
    expect(isApiRequest(entry())).toBe(true);
    expect(isApiRequest(entry({ path: '/v2/usr', route_id: null }))).toBe(true);
    expect(isApiRequest(entry({ surface: 'management', path: '/v1/org/x' }))).toBe(true);
    for (const path of ['/_sandbox/receiver/hooks', '/_sandbox/clock', '/favicon.ico', '/', '/docs', '/openapi.json'])
      expect(isApiRequest(entry({ path, route_id: null })), path).toBe(false);
    expect(isApiRequest(entry({ path: '/x', route_id: 'sandbox.receiver.receive' }))).toBe(false);
  });

  it('search finds text in kept bodies and says where', () => {
    const a = entry();
    const b = entry({
      id: 'req_2',
      request: { headers: {}, body: null, body_bytes: 0 },
      response: { body: '{"detail":"Nope"}', body_bytes: 17 },
    });
    expect(searchBodies([a, b], 'NOPE')).toEqual([b]);
    expect(searchBodies([a, b], "it's")).toEqual([a]);
    expect(searchBodies([a, b], '  ')).toEqual([a, b]);
    expect(foundIn(a, 'u1')).toEqual(['response body']);
    expect(foundIn(a, '/v2/')).toEqual(['path']);
  });
});

describe('copy as curl and replay', () => {
  it("curl puts the team environment's key back, drops transport headers and quotes the body", () => {
    const text = curlOf(entry(), creds);
    expect(text).toBe(
      [
        "curl -X POST 'http://127.0.0.1:4250/v2/user'",
        "-H 'x-vital-api-key: sk_us_sandboxkey'",
        "-H 'content-type: application/json'",
        `--data-raw '{"client_user_id":"it'\\''s me"}'`,
      ].join(' \\\n  '),
    );
  });

  it('the management surface, the production key, an unknown team and a body not kept', () => {
    const mgmt = curlOf(
      entry({
        surface: 'management',
        path: '/v1/org/x',
        query: 'a=1',
        request: { headers: { 'x-vital-org-key': 'sk_***' }, body: null, body_bytes: 0 },
      }),
      creds,
    );
    expect(mgmt).toContain("'http://127.0.0.1:4250/management/v1/org/x?a=1'");
    expect(mgmt).toContain("-H 'x-vital-org-key: sk_org_secret'");
    expect(curlOf(entry({ environment: 'production' }), creds)).toContain('sk_us_prodkey');
    expect(curlOf(entry({ team_id: 'other' }), creds)).toContain("-H 'x-vital-api-key: <masked>'");
    expect(curlOf(entry({ request: { headers: {}, body: null, body_bytes: 12 } }), creds)).toContain('--request-log-bodies');
  });

  it('replay sends the same method, relative path, headers and body', () => {
    expect(replayOf(entry({ query: 'x=1' }), creds)).toEqual({
      method: 'POST',
      url: '/v2/user?x=1',
      headers: { 'x-vital-api-key': 'sk_us_sandboxkey', 'content-type': 'application/json' },
      body: '{"client_user_id":"it\'s me"}',
    });
    expect(replayOf(entry({ surface: 'management', method: 'GET' }), creds)).toMatchObject({ url: '/management/v2/user', body: undefined });
  });
});

describe("a user's timeline", () => {
  it('orders connections, pulls, events, deliveries and lab orders by time, whatever their ISO spelling', () => {
    const rows = userTimeline({
      providers: [{ slug: 'oura', status: 'connected', created_on: '2026-01-01T00:00:00Z' }],
      events: [
        {
          seq: 1,
          occurred_at: '2026-01-03T00:00:00.000Z',
          team_id: 't',
          environment: 'sandbox',
          envelope: { event_type: 'daily.data.sleep.created' },
        },
      ],
      messages: [
        {
          id: 'msg_1',
          event_type: 'daily.data.sleep.created',
          created_at: '2026-01-03T00:00:00.500Z',
          destinations: [{ endpoint_id: 'ep', status: 'success' }],
        },
      ],
      orders: [{ id: 'o1', lab_test: null, events: [{ created_at: '2026-01-02T12:00:00+00:00', status: 'received.testkit.ordered' }] }],
    });
    expect(rows.map((r) => r.kind)).toEqual(['connection', 'order', 'event', 'delivery']);
    expect(rows[1]).toMatchObject({ text: 'lab order: received.testkit.ordered', href: '#orders/o1' });
    expect(rows[3]).toMatchObject({ text: 'daily.data.sleep.created to ep: success', href: '#webhooks/msg_1' });
  });

  it('runs of pulls collapse into one row; ties keep the kind order', () => {
    const pulls = {
      provider: {
        oura: {
          pulled: Object.fromEntries(
            ['sleep', 'activity', 'workouts'].map((r, i) => [
              r,
              { status: i === 2 ? 'failure' : 'success', timeline: { ended_at: `2026-01-01T00:0${i}:00Z` } },
            ]),
          ),
        },
      },
    };
    const rows = userTimeline({
      pulls,
      providers: [{ slug: 'oura', created_on: '2026-01-01T00:00:00Z' }],
      events: [
        {
          seq: 1,
          occurred_at: '2026-01-01T00:03:00Z',
          team_id: 't',
          environment: 'sandbox',
          envelope: { event_type: 'historical.data.sleep.created' },
        },
      ],
    });
    expect(rows).toHaveLength(2);
    expect(rows[0]!.kind).toBe('connection');
    expect(rows[1]).toMatchObject({
      kind: 'pull',
      count: 4,
      at: '2026-01-01T00:00:00Z',
      until: '2026-01-01T00:03:00Z',
      status: '1 failed',
    });
    expect(rows[1]!.text).toBe('4 pulls: oura sleep, oura activity, oura workouts, historical.data.sleep.created');
    expect(collapsePulls(orderTimeline([{ at: 'x', kind: 'pull', text: 'one' }]))).toEqual([{ at: 'x', kind: 'pull', text: 'one' }]);
  });

  it('an empty world has an empty timeline', () => {
    expect(userTimeline({})).toEqual([]);
    expect(userTimeline({ providers: null, pulls: { provider: null }, events: null, messages: null, orders: null })).toEqual([]);
  });
});

describe('steering', () => {
  it('a rule edits as the body POST /_sandbox/faults takes', () => {
    expect(JSON.parse(ruleBody({ match: { path: '/v2/user/*' }, action: { status: 503 }, remaining: 2 }))).toEqual({
      match: { path: '/v2/user/*' },
      action: { status: 503 },
      times: 2,
    });
    expect(JSON.parse(ruleBody({ match: {}, action: { drop: true }, remaining: null }))).toEqual({ match: {}, action: { drop: true } });
  });
});

describe('redraws', () => {
  /** A drawing that reads the world when it starts and draws once its answer is let through. */
  function heldDrawing(read: () => number) {
    const shown: number[] = [];
    const answers: Array<() => void> = [];
    let drawing = 0;
    let most = 0;
    const draw = async () => {
      drawing += 1;
      most = Math.max(most, drawing);
      const value = read();
      try {
        await new Promise<void>((done) => answers.push(done));
        if (value < 0) throw new Error('the sandbox answered 500');
        shown.push(value);
      } finally {
        drawing -= 1;
      }
    };
    return { draw, shown, answers, most: () => most };
  }

  it('draws one at a time: one asked for meanwhile runs once, after it, and reads again (an older answer is never drawn last)', async () => {
    let seed = 3;
    const d = heldDrawing(() => seed);
    const refresh = oneAtATime(d.draw);
    const tick = refresh(); // the two-second tick: it read the world of seed 3, its answer is on the way
    seed = 11; // the reset
    const reset = refresh(); // the redraw the reset asked for
    const tab = refresh(); // a tab clicked meanwhile: the same redraw covers it
    expect(d.answers).toHaveLength(1);
    d.answers[0]!();
    await tick;
    expect(d.shown).toEqual([3]);
    expect(d.answers).toHaveLength(2);
    d.answers[1]!();
    await Promise.all([reset, tab]);
    expect(d.shown).toEqual([3, 11]);
    expect(d.answers).toHaveLength(2);
    expect(d.most()).toBe(1);
  });

  it('a drawing that fails does not stop the one asked for meanwhile', async () => {
    let value = -1;
    const d = heldDrawing(() => value);
    const refresh = oneAtATime(d.draw);
    const failing = refresh();
    value = 7;
    const next = refresh();
    d.answers[0]!();
    await expect(failing).rejects.toThrow('500');
    d.answers[1]!();
    await next;
    expect(d.shown).toEqual([7]);
    const alone = refresh();
    expect(d.answers).toHaveLength(3);
    d.answers[2]!();
    await alone;
    expect(d.shown).toEqual([7, 7]);
  });

  it('a 401 to keys a reset replaced meanwhile is drawn again, a 401 to current keys is shown', async () => {
    session.creds = creds;
    const unauthorized = new ApiFailure('GET /v2/user answered 401', 401, { detail: 'Invalid API key' });
    const replaced: Credentials = {
      ...creds,
      teams: [{ ...creds.teams[0]!, api_keys: { sandbox: 'sk_us_new', production: 'sk_us_newprod' } }],
    };
    expect(await keysMovedUnder(unauthorized, async () => replaced)).toBe(true);
    expect(await keysMovedUnder(unauthorized, async () => structuredClone(creds))).toBe(false);
    expect(await keysMovedUnder(new ApiFailure('GET /v2/user answered 500', 500, {}), async () => replaced)).toBe(false);
    expect(await keysMovedUnder(new Error('network'), async () => replaced)).toBe(false);
    expect(
      await keysMovedUnder(unauthorized, async () => {
        throw new Error('the credentials read failed too');
      }),
    ).toBe(false);
  });
});
