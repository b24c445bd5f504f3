/**
 * The request journal hardened (issue 40, items 2 and 9): a read masks bodies that are not JSON in
 * linear time (ten 60 KB refused bodies read at once, on every adapter; the pair scanner agrees
 * with the regular expression it replaced) and renders at most READ_BODY_BUDGET of bodies (the
 * rest one `id` read away), management keys (`mg_`) and every other key shape are
 * masked wherever they stand, the ring holds its bodies within a byte budget, and near misses are
 * worked out when a record is read, never on the request path.
 */
import { describe, expect, it } from 'vitest';
import { BODY_BUDGET, BODY_CAP } from '../../src/engine/journal.js';
import { maskKeyWords, maskPairs, READ_BODY_BUDGET } from '../../src/engine/journal-view.js';
import { createSandbox } from '../../src/index.js';
import { ALL_ADAPTERS, createClient } from '../support/client.js';

const small = { seed: 5, users: 1, usersElsewhere: 0, feed: 'off' as const };
const text = (body: string) => ({ body, headers: { 'content-type': 'text/plain' } });

for (const adapter of ALL_ADAPTERS) {
  describe(`journal hardening [${adapter}]`, () => {
    it('reads ten 60 KB refused bodies that are not JSON at once (linear masking)', async () => {
      const c = createClient(adapter, small);
      // No key: each is a 401 whose body is kept. A long word with no `=` made the old pattern backtrack quadratically.
      for (let i = 0; i < 10; i++) {
        const res = await c.call('POST', '/v2/user', {
          ...text(`${'a'.repeat(60_000)}${i}`),
          headers: { 'content-type': 'text/plain', 'x-vital-api-key': '' },
        });
        expect(res.status).toBeGreaterThanOrEqual(400);
      }
      const started = performance.now();
      const page = (await c.get('/_sandbox/requests', { query: { limit: 10 } })).body;
      // A backstop only (the old code took over 20 s here); the linear work is checked below by the scanner's agreement.
      expect(performance.now() - started).toBeLessThan(4000);
      expect(page.requests).toHaveLength(10);
      expect(page.requests[0].request.body).toHaveLength(60_001);
      // One read renders at most READ_BODY_BUDGET of bodies, newest first; the others are one `id` read away.
      const rendered = page.requests.reduce((n: number, r: any) => n + (r.request.body?.length ?? 0) + (r.response.body?.length ?? 0), 0);
      expect(rendered).toBeLessThanOrEqual(READ_BODY_BUDGET);
      const oldest = page.requests[9];
      expect(oldest.request).toMatchObject({ body: null, body_omitted: true, body_bytes: 60_001 });
      const alone = (await c.get('/_sandbox/requests', { query: { id: oldest.id } })).body.requests;
      expect(alone.map((r: any) => r.id)).toEqual([oldest.id]);
      expect(alone[0].request).toMatchObject({ body_omitted: false, body_bytes: 60_001 });
      expect(alone[0].request.body).toHaveLength(60_001);
    });

    it('masks management keys (mg_) and every key shape in headers, JSON, text bodies and queries', async () => {
      const c = createClient(adapter, small);
      const mg = c.managementKey;
      expect(mg.startsWith('mg_')).toBe(true);
      await c.post('/v2/user', { client_user_id: mg });
      await c.post('/v2/user', undefined, text(`client sent ${mg} and token=${mg}`));
      await c.get('/v2/user', { query: { note: mg } });
      await c.mgmt('GET', `/v1/org/${c.orgId}/team`);
      const read = (await c.get('/_sandbox/requests', { query: { limit: 10 } })).text;
      expect(read).not.toContain(mg);
      expect(read).not.toContain(mg.slice(0, 20));
      expect(read).toContain('mg_');
    });
  });
}

describe('masking scanners', () => {
  /**
   * The pattern the pair scanner replaced (quadratic on a long word without `=`), on short inputs
   * only: each pair it finds is masked as the scanner masks that pair alone, so the two agree
   * exactly when the scanner finds the same pairs at the same places.
   */
  const OLD = /([^&=\s]+)=([^&\s]*)/g;
  const oldPairs = (s: string) => s.replace(OLD, (all) => maskPairs(all));

  it('the pair scanner masks what the old pattern masked, at the same places', () => {
    const samples = [
      'a=1&secret=abcdef',
      'token=xyz b=2',
      '==token=abcdefgh',
      'x==y&password==hunter22',
      'plain text with no pairs',
      'k=sk_us_abcdefgh&v=mg_0123456789',
      '&&&secret=&api_key=k1\tpassword=p\nnext=1',
      'name=value=more secret=a=b',
      '=',
      '',
      'é=1 token=✓✓✓✓✓✓',
    ];
    for (const s of samples) expect(maskPairs(s), s).toBe(oldPairs(s));
    expect(maskPairs('a=1&secret=abcdefghijkl')).toBe('a=1&secret=abcd***');
  });

  it('masks key-shaped words in any text, once', () => {
    expect(maskKeyWords('a mg_abcdefghijklmnop b')).toBe('a mg_abc*** b');
    expect(maskKeyWords('sk_us_abcdefghijkl,vat_us_abcdefghijkl')).not.toMatch(/abcdefghijkl/);
    expect(maskKeyWords('sk_us_ab***')).toBe('sk_us_ab***');
    expect(maskKeyWords('mask_value desk_top')).toBe('mask_value desk_top');
  });
});

describe('journal bounds', () => {
  it('holds bodies within the byte budget: the oldest lose theirs (and say so), the newest keep them', async () => {
    const sandbox = createSandbox({ ...small, logger: () => undefined });
    const body = new TextEncoder().encode('b'.repeat(BODY_CAP + 1000));
    const n = Math.ceil((2 * BODY_BUDGET) / BODY_CAP);
    for (let i = 0; i < n; i++) {
      const res = await sandbox.dispatch({
        method: 'POST',
        surface: 'data',
        path: '/v2/user',
        query: {},
        headers: { 'content-type': 'text/plain' },
        rawBody: body,
      });
      expect(res.status).toBe(401);
    }
    expect(sandbox.requests.heldBodyBytes).toBeLessThanOrEqual(BODY_BUDGET);
    const records = [...sandbox.requests.newestFirst()];
    expect(records).toHaveLength(n);
    expect(records[0]?.requestBody?.byteLength).toBe(BODY_CAP);
    expect(records[0]?.bodiesDropped).toBe(false);
    expect(records[n - 1]?.requestBody).toBeUndefined();
    expect(records[n - 1]?.bodiesDropped).toBe(true);
    expect(records[n - 1]?.requestBytes).toBe(BODY_CAP + 1000);
  });

  it('lets go of the records that left the ring (a stream of 404s holds no more than the ring)', async () => {
    const sandbox = createSandbox({ ...small, requests: { size: 50 }, logger: () => undefined });
    for (let i = 0; i < 3000; i++)
      await sandbox.dispatch({ method: 'GET', surface: 'data', path: '/v2/usr', query: {}, headers: {}, rawBody: new Uint8Array(0) });
    const inner = sandbox.requests as unknown as { withBodies: unknown[]; bodiesHead: number };
    expect(inner.withBodies.length - inner.bodiesHead).toBeLessThanOrEqual(50);
    expect(inner.withBodies.length).toBeLessThanOrEqual(2 * 1024 + 50);
  });

  it('works out near misses when a record is read, not when the request is answered', async () => {
    const sandbox = createSandbox({ ...small, logger: () => undefined });
    await sandbox.dispatch({ method: 'GET', surface: 'data', path: '/v2/usr', query: {}, headers: {}, rawBody: new Uint8Array(0) });
    const [record] = [...sandbox.requests.newestFirst()];
    expect((record as unknown as { misses: unknown }).misses).toBeUndefined();
    expect(record?.nearMisses?.[0]).toMatchObject({ kind: 'segment', path: '/v2/user' });
    expect((record as unknown as { misses: unknown }).misses).toBeDefined();
  });
});
