/**
 * The rendered-bytes memo of GET answers (src/engine/render-cache.ts) hands out exactly
 * `JSON.stringify` of the view it is given: again for the same view, anew for any change (a value,
 * a key's order, a view changed in place, a key set to undefined), and never for what is not plain
 * data. Through dispatch: a read after a write answers the written state.
 */
import { describe, expect, it } from 'vitest';
import { renderedJson } from '../../src/engine/render-cache.js';
import { defineRoute } from '../../src/engine/route.js';
import { createSandbox } from '../../src/index.js';
import { jsonRequest } from '../support/sim-request.js';

const route = defineRoute({
  id: 'memo',
  method: 'GET',
  path: '/memo',
  auth: 'none',
  summary: 'memo',
  responses: {},
  handle: () => ({ status: 200 }),
});
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const render = (path: string, view: unknown) => text(renderedJson(route, path, view));

describe('renderedJson', () => {
  it('records a path on its second read and serves the third from the record (a path read once costs no recording)', () => {
    const view = { id: 'seen', n: [1, 2, 3] };
    const first = renderedJson(route, '/seen', view);
    const second = renderedJson(route, '/seen', view);
    const third = renderedJson(route, '/seen', view);
    const fourth = renderedJson(route, '/seen', view);
    expect([first, second, third].map(text)).toEqual(Array(3).fill(JSON.stringify(view)));
    // The first two are rendered; from the third on, the recorded bytes are handed out.
    expect(third).not.toBe(second);
    expect(fourth).toBe(third);
  });

  it('answers the same bytes for the same view, and JSON.stringify of the new one after any change', () => {
    const live = { id: 'a', tz: { id: 'Europe/Berlin', at: 1 }, list: [1, 'two', null, true], gone: undefined as unknown };
    const views: unknown[] = [
      live,
      { ...live },
      { ...live, tz: { at: 1, id: 'Europe/Berlin' } },
      { ...live, list: [1, 'two', null] },
      { ...live, list: [1, 'two', null, false] },
      { ...live, gone: 0 },
      { ...live, id: 'b' },
    ];
    for (const view of views) expect(render('/x', view)).toBe(JSON.stringify(view));
    // Changed in place, the same objects: still the new bytes.
    live.tz.id = 'Europe/Paris';
    expect(render('/x', live)).toBe(JSON.stringify(live));
    live.list.push('more');
    expect(render('/x', live)).toBe(JSON.stringify(live));
  });

  it('renders every time what is not plain data, and keeps answering right for a changing view', () => {
    const dated = { at: new Date(0), n: Number.NaN, big: [undefined, () => 1] };
    for (let i = 0; i < 3; i++) expect(render('/y', dated)).toBe(JSON.stringify(dated));
    class Box {
      constructor(readonly v: number) {}
    }
    expect(render('/y', { b: new Box(1) })).toBe('{"b":{"v":1}}');
    expect(render('/y', { b: new Box(2) })).toBe('{"b":{"v":2}}');
    expect(render('/y', { toJSON: () => 'x' })).toBe('"x"');
    for (let i = 0; i < 8; i++) expect(render('/z', { i })).toBe(`{"i":${i}}`);
  });
});

describe('through dispatch', () => {
  it('a read after a write answers the written state', async () => {
    const sandbox = createSandbox({ seed: 7, users: 1, usersElsewhere: 0, feed: 'off', logger: () => undefined });
    const key = sandbox.credentials().teams[0]?.api_keys.sandbox as string;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await sandbox.dispatch(jsonRequest(key, method, path, body));
      return { status: res.status, json: res.body.byteLength === 0 ? undefined : (JSON.parse(text(res.body)) as Record<string, unknown>) };
    };
    const { json: list } = await call('GET', '/v2/user');
    const id = ((list?.users as Array<{ user_id: string }>)[0] as { user_id: string }).user_id;
    const before = await call('GET', `/v2/user/${id}`);
    expect((await call('GET', `/v2/user/${id}`)).json).toEqual(before.json);
    expect((await call('PATCH', `/v2/user/${id}`, { fallback_time_zone: 'Asia/Tokyo' })).status).toBe(204);
    const after = await call('GET', `/v2/user/${id}`);
    expect((after.json?.fallback_time_zone as { id: string }).id).toBe('Asia/Tokyo');
    expect((await call('DELETE', `/v2/user/${id}`)).status).toBe(200);
    expect((await call('GET', `/v2/user/${id}`)).status).toBe(404);
  });
});
