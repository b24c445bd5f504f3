/**
 * The OpenAPI documents by area (`?area=<tag>`, what `/docs` loads first): one area's operations
 * and the components they refer to, the same operations as in the whole document; an unknown area
 * is a 422 naming the areas. Over the express and msw adapters.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../support/client.js';

type Doc = {
  info: { title: string };
  paths: Record<string, Record<string, { operationId: string; tags: string[] }>>;
  components: { schemas: Record<string, unknown> };
};

const operations = (doc: Doc) => Object.values(doc.paths).flatMap((item) => Object.values(item));

describe.each(['express', 'msw'] as const)('OpenAPI documents by area (%s)', (adapter) => {
  const c = createClient(adapter, { seed: 3, users: 1 });

  it('serves one area: its operations, as in the whole document, and only the components they use', async () => {
    const whole = (await c.get('/openapi.json')).body as Doc;
    const res = await c.get('/openapi.json?area=labs');
    expect(res.status).toBe(200);
    const labs = res.body as Doc;
    expect(labs.info.title).toBe(`${whole.info.title}, area labs`);
    const ids = operations(labs).map((op) => op.operationId);
    expect(ids.length).toBeGreaterThan(0);
    expect(
      operations(whole)
        .filter((op) => op.tags[0] === 'labs')
        .map((op) => op.operationId),
    ).toEqual(ids);
    for (const [path, item] of Object.entries(labs.paths))
      for (const [method, op] of Object.entries(item)) expect(whole.paths[path]?.[method]).toEqual(op);
    expect(Object.keys(labs.components.schemas).length).toBeLessThan(Object.keys(whole.components.schemas).length);
    expect(JSON.stringify(labs).length).toBeLessThan(JSON.stringify(whole).length / 10);
    const management = await c.get('/openapi.json?area=webhooks', { surface: 'management' });
    expect(operations(management.body as Doc).every((op) => op.tags[0] === 'webhooks')).toBe(true);
    const control = await c.get('/_sandbox/openapi.json?area=sandbox');
    expect(operations(control.body as Doc).length).toBe(operations((await c.get('/_sandbox/openapi.json')).body as Doc).length);
  });

  it('answers 422 naming the areas for an area the document does not have, on the documents and /docs', async () => {
    const res = await c.get('/openapi.json?area=nope');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [{ loc: ['query', 'area'], msg: expect.stringContaining('users, providers, link'), type: 'value_error', input: 'nope' }],
    });
    expect((await c.get('/openapi.json?area=labs', { surface: 'management' })).status).toBe(422);
    expect((await c.get('/docs?area=nope')).status).toBe(422);
    expect((await c.get('/docs?doc=management&area=labs')).status).toBe(422);
  });

  it('lists every document by area first, then each whole document, and shows the asked one first', async () => {
    const page = (await c.get('/docs')).text;
    const urls = JSON.parse(/urls: (\[.*\]),/.exec(page)?.[1] ?? '[]') as { url: string; name: string }[];
    expect(urls[0]).toEqual({ url: expect.stringMatching(/\/openapi\.json\?area=users$/), name: 'Data interface: users' });
    expect(urls.slice(-3).map((u) => u.name)).toEqual([
      'Data interface, all areas',
      'Management interface, all areas',
      'Control plane (/_sandbox), all areas',
    ]);
    expect(page).toContain(`'urls.primaryName': "Data interface: users"`);
    expect((await c.get('/docs?area=labs')).text).toContain(`'urls.primaryName': "Data interface: labs"`);
    expect((await c.get('/docs?doc=control')).text).toContain(`'urls.primaryName': "Control plane (/_sandbox): sandbox"`);
  });
});
