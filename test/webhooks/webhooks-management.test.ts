/**
 * The webhook management API (api-facts A.15): CRUD, pagination, secrets, validation, access
 * rules and determinism, checked against the management OpenAPI schemas when they are present.
 */
import { describe, expect, it } from 'vitest';
import { createClient, forEachAdapter, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { createEndpoint, teamOf, webhookBase, QUIET } from '../support/webhooks-support.js';
import { WEBHOOKS_ERRORS } from '../../src/state/webhooks/errors.js';

const oas = oasValidator('management');

function addTeamKey(c: TestClient, teamIds: string[]): string {
  const secret = `mg_test_team_key_${teamIds.join('_').slice(0, 8)}`;
  c.sandbox.world.tenancy.addManagementKey({
    id: '11111111-2222-4333-8444-555555555555',
    org_id: c.orgId,
    label: 'team key',
    key: secret,
    role: 'team_admin',
    team_ids: teamIds,
    created_at: '2026-01-05T09:00:00.000Z',
    creator: { type: 'management_key' },
  });
  return secret;
}

forEachAdapter('webhook management', (adapter) => {
  it('creates an endpoint with the documented defaults and an svix-style id', async () => {
    const c = createClient(adapter, QUIET);
    const res = await c.mgmt('POST', webhookBase(c), { body: { url: 'https://example.com/hooks' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^ep_[0-9A-Za-z]{27}$/),
      description: '',
      rate_limit: null,
      url: 'https://example.com/hooks',
      disabled: false,
      filter_types: null,
      created_at: '2026-01-05T09:00:00.000Z',
      updated_at: '2026-01-05T09:00:00.000Z',
    });
    oas?.expectValid('Webhook', res.body);
    const got = await c.mgmt('GET', `${webhookBase(c)}/${res.body.id}`);
    expect(got.body).toEqual(res.body);
    const secret = await c.mgmt('GET', `${webhookBase(c)}/${res.body.id}/secret`);
    oas?.expectValid('WebhookSecretResponse', secret.body);
    const headers = await c.mgmt('GET', `${webhookBase(c)}/${res.body.id}/headers`);
    oas?.expectValid('WebhookHeadersResponse', headers.body);
  });

  it('lists oldest first with limit and next_cursor', async () => {
    const c = createClient(adapter, QUIET);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createEndpoint(c, { url: `https://example.com/${i}`, description: `n${i}` })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const query: Record<string, string | number> = { limit: 2 };
      if (cursor) query.next_cursor = cursor;
      const res = await c.mgmt('GET', webhookBase(c), { query });
      expect(res.status).toBe(200);
      oas?.expectValid('WebhookListResponse', res.body);
      seen.push(...res.body.data.map((w: { id: string }) => w.id));
      cursor = res.body.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(ids);
    const all = await c.mgmt('GET', webhookBase(c));
    expect(all.body.data).toHaveLength(5);
    expect(all.body.next_cursor).toBeNull();
    expect((await c.mgmt('GET', webhookBase(c), { query: { next_cursor: 'ep_unknown' } })).status).toBe(422);
    expect((await c.mgmt('GET', webhookBase(c), { query: { limit: 0 } })).status).toBe(422);
    // Other environments and teams have their own lists.
    expect((await c.mgmt('GET', webhookBase(c, 'production'))).body.data).toEqual([]);
    expect((await c.mgmt('GET', webhookBase(c, 'sandbox', 1))).body.data).toEqual([]);
  });

  it('patches url, description, disabled, filter_types and rate_limit; validates before changing anything', async () => {
    const c = createClient(adapter, QUIET);
    const { id } = await createEndpoint(c, { url: 'https://example.com/a', filter_types: ['daily.data.steps.created'], rate_limit: 10 });
    await c.advance(60);
    const url = `${webhookBase(c)}/${id}`;
    const res = await c.mgmt('PATCH', url, {
      body: {
        url: 'https://example.com/b',
        description: 'hooks',
        disabled: true,
        filter_types: ['labtest.order.created', 'labtest.order.updated'],
        rate_limit: 5,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      url: 'https://example.com/b',
      description: 'hooks',
      disabled: true,
      filter_types: ['labtest.order.created', 'labtest.order.updated'],
      rate_limit: 5,
      updated_at: '2026-01-05T09:01:00.000Z',
      created_at: '2026-01-05T09:00:00.000Z',
    });
    oas?.expectValid('Webhook', res.body);
    const before = (await c.mgmt('GET', url)).text;
    for (const [body, field] of [
      [{ url: 'ftp://example.com', description: 'x' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ filter_types: [], description: 'x' }, 'filter_types'],
      [{ filter_types: ['bad type!'] }, 'filter_types'],
      [{ rate_limit: 0 }, 'rate_limit'],
      [{ disabled: 'maybe' }, 'disabled'],
    ] as const) {
      const bad = await c.mgmt('PATCH', url, { body });
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.detail[0].loc[1]).toBe(field);
    }
    expect((await c.mgmt('GET', url)).text).toBe(before);
    const cleared = await c.mgmt('PATCH', url, { body: { filter_types: null, rate_limit: null, url: null, disabled: false } });
    expect(cleared.body).toMatchObject({ filter_types: null, rate_limit: null, url: 'https://example.com/b', disabled: false });
  });

  it('deletes with 204, then answers 404', async () => {
    const c = createClient(adapter, QUIET);
    const { id } = await createEndpoint(c, { url: 'https://example.com/a' });
    const del = await c.mgmt('DELETE', `${webhookBase(c)}/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const suffix of ['', '/secret', '/headers']) {
      const res = await c.mgmt('GET', `${webhookBase(c)}/${id}${suffix}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: WEBHOOKS_ERRORS.notFound });
    }
    expect((await c.mgmt('DELETE', `${webhookBase(c)}/${id}`)).status).toBe(404);
    // An endpoint is only reachable through its own team environment.
    const other = await createEndpoint(c, { url: 'https://example.com/b' });
    expect((await c.mgmt('GET', `${webhookBase(c, 'production')}/${other.id}`)).status).toBe(404);
  });

  it('answers 422 for malformed input and creates nothing', async () => {
    const c = createClient(adapter, QUIET);
    const cases: Array<[unknown, string[]]> = [
      [{}, ['body', 'url']],
      [{ url: 'https://example.com', disabled: 'no' }, ['body', 'disabled']],
      [{ url: 'https://example.com', filter_types: 'daily.data.steps.created' }, ['body', 'filter_types']],
      [{ url: 'https://example.com', rate_limit: 'fast' }, ['body', 'rate_limit']],
      [{ url: 'mailto:me@example.com' }, ['body', 'url']],
    ];
    for (const [body, loc] of cases) {
      const res = await c.mgmt('POST', webhookBase(c), { body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(loc);
    }
    expect((await c.mgmt('POST', webhookBase(c))).status).toBe(422);
    expect(
      (await c.mgmt('POST', `/v1/org/${c.orgId}/team/${teamOf(c)}/staging/webhook`, { body: { url: 'https://example.com' } })).status,
    ).toBe(422);
    expect((await c.mgmt('GET', `/v1/org/not-a-uuid/team/${teamOf(c)}/sandbox/webhook`)).status).toBe(422);
    expect((await c.mgmt('GET', webhookBase(c))).body.data).toEqual([]);
  });

  it('enforces the management access rules', async () => {
    const c = createClient(adapter, QUIET);
    const base = webhookBase(c);
    const apiKey = await c.call('GET', base, { surface: 'management', anonymous: true, headers: { 'x-management-key': c.apiKey } });
    expect(apiKey.status).toBe(401);
    const none = await c.call('GET', base, { surface: 'management', anonymous: true });
    expect(none.status).toBe(401);
    const otherOrg = await c.mgmt('GET', `/v1/org/00000000-0000-4000-8000-000000000000/team/${teamOf(c)}/sandbox/webhook`);
    expect(otherOrg.status).toBe(403);
    const unknownTeam = await c.mgmt('GET', `/v1/org/${c.orgId}/team/00000000-0000-4000-8000-000000000000/sandbox/webhook`);
    expect(unknownTeam.status).toBe(404);
    const teamKey = addTeamKey(c, [teamOf(c, 1)]);
    const headers = { 'x-management-key': teamKey };
    expect((await c.call('GET', base, { surface: 'management', anonymous: true, headers })).status).toBe(403);
    expect((await c.call('GET', webhookBase(c, 'sandbox', 1), { surface: 'management', anonymous: true, headers })).status).toBe(200);
    c.sandbox.world.tenancy.orgs.get(c.orgId)!.plan = 'grow';
    expect((await c.mgmt('GET', base)).status).toBe(403);
  });
});

describe('webhook management determinism', () => {
  it('gives the same ids and secrets for the same seed and requests', async () => {
    const run = async () => {
      const c = createClient('express', { ...QUIET, seed: 11 });
      const a = await createEndpoint(c, { url: 'https://example.com/a' });
      const b = await createEndpoint(c, { url: 'https://example.com/b' });
      return [a.id, a.secret, b.id, b.secret];
    };
    const first = await run();
    expect(await run()).toEqual(first);
    expect(new Set(first).size).toBe(4);
  });
});
