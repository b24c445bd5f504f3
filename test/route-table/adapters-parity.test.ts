/**
 * Adapter parity driven by the route table: for every route in ROUTES, a valid request (one that
 * succeeds, its precondition arranged: test/support/valid-requests.ts) and an invalid one go
 * through express, msw, the CLI's node:http adapter and `fetch`, each over its own sandbox with
 * the same seed, and the answers must be byte-identical (status, content type, body). The valid
 * request must answer 2xx (3xx for a route whose success is a redirect) and the invalid one 4xx
 * (422 for a validation failure), so the success path of every route is compared. A new route is
 * covered without editing this file; one whose valid request fails says what to add.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/engine/route.js';
import { ROUTES } from '../../src/routes.js';
import { ALL_ADAPTERS, createClient, type TestClient } from '../support/client.js';
import { runRouteCases, type Answer } from '../support/route-cases.js';
import { operationKey } from '../support/valid-requests.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';

/**
 * Routes whose valid request does not answer a success, each with the status it answers and why.
 * An entry whose route now answers otherwise fails, so the list only shrinks.
 */
const NO_SUCCESS: Record<string, { status: number; why: string }> = {
  'sandbox.receivers.certify': {
    status: 422,
    why: 'A certification sends real requests whose answer times and signature timestamps are wall-clock: the table sends a refused destination (422 on every adapter); test/webhooks/certify-control.test.ts covers its success.',
  },
  'meta.docs.asset': {
    status: 404,
    why: 'The Swagger UI files are served by the Node adapters only (express, node:http); msw and fetch answer 404 by design (no files in a browser). The request names no file, so every adapter answers the same 404.',
  },
};

interface Line {
  answer: Answer;
  text: string;
}

/** The request journal's answer reduced to what the engine decided (transport headers and wall time vary). */
function journalLines(text: string): string {
  const page = JSON.parse(text) as { requests: Array<Record<string, unknown>> };
  return JSON.stringify(page.requests.map((r) => [r.id, r.method, r.path, r.route_id, r.status, r.team_id, r.invalid, r.near_misses]));
}

/** Runs every case on one client; answers with the served URL replaced, so adapters on different URLs compare. */
async function run(c: TestClient): Promise<Line[]> {
  const out: Line[] = [];
  await runRouteCases(c, (answer) => {
    const { route, kind, res } = answer;
    // Served URLs differ by adapter, and measured delivery latencies are wall time.
    let text = res.bytes
      .toString('latin1')
      .split(c.sandbox.world.urls.base)
      .join('<base>')
      .replace(/"(latency_ms|duration_ms)":\d+/g, '"$1":0');
    // The test receivers echo the request headers each client library sent: transport, not engine.
    if (route.id.startsWith('sandbox.receiver')) text = text.replace(/"headers":\{[^{}]*\}/g, '"headers":{}');
    // The request journal records what each transport sent (its headers) and wall times: compare what was answered.
    if (route.id === 'sandbox.requests.list' && res.status === 200) text = journalLines(text);

    // The world document logs each request as the adapter received it (its transport headers too).
    if (route.id === 'sandbox.world.get') text = text.replace(/"log":\[.*\]\}$/, '"log":[]}');
    // Content-Length: the same presence on every adapter, and the length of the bytes received.
    const length = res.headers['content-length'];
    const declared =
      length === undefined
        ? 'no content-length'
        : length === String(res.bytes.length)
          ? 'content-length of the body'
          : `content-length ${length} for ${res.bytes.length} bytes`;
    out.push({ answer, text: `${route.id} ${kind} ${res.status} ${res.headers['content-type'] ?? ''} ${declared} ${text}` });
  });
  return out;
}

/** 3xx counts as a success only for a route that declares no 2xx (its success is a redirect). */
function succeeded(route: Route, status: number): boolean {
  if (status >= 200 && status < 300) return true;
  const redirects = !Object.keys(route.responses).some((s) => s.startsWith('2'));
  return redirects && status >= 300 && status < 400;
}

const detail = (a: Answer) => a.res.text.slice(0, 200);

describe('adapter parity over the route table', () => {
  let answers: Line[][] = [];
  beforeAll(async () => {
    // A fixed wall clock: signature timestamps are wall time. A file sink, so the NDJSON route can succeed.
    const options = {
      seed: 8,
      users: 1,
      usersElsewhere: 1,
      feed: 'off' as const,
      wallClock: fixedWall,
      webhookTransport: refusedDelivery,
      fileSink: { append: async () => undefined },
    };
    answers = [];
    for (const adapter of ALL_ADAPTERS) answers.push(await run(createClient(adapter, options)));
  }, 180_000);

  it('every valid request succeeds (but for the named exceptions)', () => {
    const reference = answers[0] ?? [];
    expect(reference.length).toBe(ROUTES.length * 2);
    const problems: string[] = [];
    for (const { answer: a } of reference.filter((l) => l.answer.kind === 'valid')) {
      const known = NO_SUCCESS[a.route.id];
      if (known) {
        if (a.res.status !== known.status)
          problems.push(
            `${a.route.id}: listed in NO_SUCCESS with ${known.status} but answered ${a.res.status}: remove or update the entry`,
          );
        continue;
      }
      if (succeeded(a.route, a.res.status)) continue;
      problems.push(
        `${a.route.id} (${operationKey(a.route)}): the valid request answered ${a.res.status} ${detail(a)}. Add what its success needs: an entry '${a.route.id}' in ROUTE_OVERRIDES (test/support/route-overrides.ts: body, query, params, headers), or, for a precondition another route creates, in ARRANGE (scripts/conformance/arrange.ts)`,
      );
    }
    for (const id of Object.keys(NO_SUCCESS))
      if (!ROUTES.some((r) => r.id === id)) problems.push(`NO_SUCCESS names ${id}, which is not a route`);
    expect(problems).toEqual([]);
  });

  it('every invalid request is refused: 422 for a bad body or query, 4xx otherwise', () => {
    const problems: string[] = [];
    for (const { answer: a } of (answers[0] ?? []).filter((l) => l.answer.kind === 'invalid')) {
      const validation = a.breaks === 'body' || a.breaks === 'query';
      const ok = validation ? a.res.status === 422 : a.res.status >= 400 && a.res.status < 500;
      if (!ok)
        problems.push(
          `${a.route.id} (${operationKey(a.route)}): the invalid request (bad ${a.breaks}) answered ${a.res.status} ${detail(a)}, expected ${validation ? 422 : '4xx'}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('express, msw, node:http and fetch answer every request byte-identically', () => {
    const [reference, ...others] = answers.map((lines) => lines.map((l) => l.text)) as [string[], ...string[][]];
    expect(others.length).toBe(ALL_ADAPTERS.length - 1);
    for (const other of others) {
      expect(other.length).toBe(reference.length);
      for (let i = 0; i < reference.length; i++) expect(other[i], reference[i]?.slice(0, 120)).toBe(reference[i]);
    }
  });
});
