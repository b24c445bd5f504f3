/**
 * The key-scope matrix (spec 5) and the plan rule (spec 1) over EVERY management route in the
 * route table, including routes other areas add: org key, X-Service-Org-Key alias, team key
 * bound / not bound, team API key, no key, unknown key, and an org off the premium plan.
 *
 * A route is team-scoped when it names a team (`:team_id`, or `team_id` / `team_ids` in its query or body)
 * and org-level otherwise; the table below refines the management area's own routes. Requests
 * are filled from the route's own schemas so that validation never answers before access does.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../src/routes.js';
import type { Route } from '../../src/engine/route.js';
import { createClient, forAdapters, type TestClient } from '../support/client.js';
import { ACCESS_MESSAGES, MANAGEMENT_ERRORS } from '../../src/state/management/errors.js';
import { jsonSchemaOf } from '../../scripts/conformance/writes.js';

type Scope = 'org' | 'team' | 'any';
/** Query or body keys that name the team(s) a request acts on. */
const TEAM_KEYS = ['team_id', 'team_ids'];
const OTHER_ID = '00000000-0000-4000-8000-0000000000aa';

/**
 * How the management area's routes treat team keys:
 * - org: org-level, a team key is always refused (403);
 * - team: a team key may act on its bound teams only;
 * - any: a team key may call it and sees / changes only its bound teams (delete answers put
 *   other teams' ids in `not_found`, like unknown ids).
 */
const SCOPES: Record<string, Scope> = {
  'management.org.get': 'any',
  'management.org.update': 'org',
  'management.team.list': 'any',
  'management.team.resolve': 'team',
  'management.team.create': 'org',
  'management.team.delete': 'org',
  'management.key.list': 'org',
  'management.key.create': 'org',
  'management.key.update': 'org',
  'management.key.delete': 'org',
  'management.team_api_keys.delete': 'any',
  'management.custom_credentials.delete': 'any',
  'management.lab_account.update': 'org',
};

interface TeamRef {
  id: string;
  region: 'us' | 'eu';
  integration: string;
}

/** Hand-made valid inputs for the management area's routes (others are generated). */
function ownInput(route: Route, team: TeamRef): { query?: Record<string, string | string[]>; body?: unknown } | undefined {
  switch (route.id) {
    case 'management.org.update':
      return { body: { name: 'Matrix' } };
    case 'management.team.create':
      return { body: { name: 'Matrix', region: 'us' } };
    case 'management.team.update':
      return { body: { name: 'Matrix' } };
    case 'management.team.resolve':
      return { body: { integration_team_id: team.integration } };
    case 'management.key.create':
      return { body: { label: 'm', role: 'org_admin' } };
    case 'management.key.update':
      return { body: { label: 'm' } };
    case 'management.team_api_keys.list':
      return { query: { team_id: team.id } };
    case 'management.team_api_keys.create':
      return { body: { label: 'm', team_id: team.id } };
    case 'management.team_api_keys.delete':
      return { query: { api_key_id: [OTHER_ID] } };
    case 'management.custom_credentials.prepare':
      return { body: { team_id: team.id, provider: 'oura' } };
    case 'management.custom_credentials.set':
      return { body: { team_id: team.id, provider: 'oura', client_id: 'a', client_secret: 'b' } };
    case 'management.custom_credentials.list':
      return { query: { team_id: [team.id] } };
    case 'management.custom_credentials.delete':
      return { query: { credential_id: [OTHER_ID] } };
    case 'management.lab_account.list':
      return { query: { team_id: team.id } };
    case 'management.lab_account.update':
      return { body: { team_id_allowlist: [] } };
    default:
      return undefined;
  }
}

type Json = Record<string, unknown>;

/** A minimal value satisfying a JSON schema; `team_id` keys get the team. */
function sample(schema: Json, team: TeamRef, key = ''): unknown {
  if (TEAM_KEYS.includes(key)) return schema.type === 'array' || key === 'team_ids' ? [team.id] : team.id;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const options = schema[k];
    if (Array.isArray(options)) {
      const first = (options as Json[]).find((o) => o.type !== 'null') ?? (options as Json[])[0];
      return first ? sample(first, team, key) : null;
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const out: Json = {};
      const props = (schema.properties ?? {}) as Record<string, Json>;
      for (const name of (schema.required ?? []) as string[]) out[name] = sample(props[name] ?? {}, team, name);
      for (const k of TEAM_KEYS) if (props[k] && !(k in out)) out[k] = sample(props[k], team, k);
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return Array.from({ length: min }, () => sample((schema.items ?? {}) as Json, team));
    }
    case 'string':
      if (schema.format === 'uuid') return OTHER_ID;
      if (schema.format === 'uri' || schema.format === 'url' || /url|uri/.test(key)) return 'https://example.com/hook';
      if (schema.format === 'email') return 'a@example.com';
      if (schema.format === 'date-time') return '2026-01-05T09:00:00Z';
      return 'x'.repeat(typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 1);
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 10;
    case 'boolean':
      return false;
    default:
      return 'x';
  }
}

const jsonSchema = (schema: z.ZodType | undefined): Json | undefined => (schema ? (jsonSchemaOf(schema) as Json) : undefined);

function shapeKeys(schema: Json | undefined): string[] {
  return Object.keys((schema?.properties ?? {}) as Json);
}

function scopeOf(route: Route): Scope {
  const own = SCOPES[route.id];
  if (own) return own;
  if (route.path.includes(':team_id')) return 'team';
  const named = [...shapeKeys(jsonSchema(route.request.query)), ...shapeKeys(jsonSchema(route.request.body))];
  return named.some((k) => TEAM_KEYS.includes(k)) ? 'team' : 'org';
}

function buildRequest(
  route: Route,
  orgId: string,
  team: TeamRef,
): { path: string; query?: Record<string, string | string[]>; body?: unknown } {
  const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    if (name === 'org_id') return orgId;
    if (name === 'team_id') return team.id;
    if (name === 'env' || name === 'environment') return 'sandbox';
    if (name === 'region') return team.region;
    return OTHER_ID;
  });
  const own = ownInput(route, team);
  if (own) return { path, ...own };
  const querySchema = jsonSchema(route.request.query);
  const query = querySchema ? (sample(querySchema, team) as Record<string, string | string[]>) : undefined;
  const bodySchema = jsonSchema(route.request.body);
  const body = bodySchema ? sample(bodySchema, team) : undefined;
  return { path, query: query && Object.keys(query).length > 0 ? stringify(query) : undefined, body };
}

function stringify(query: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(query)) out[k] = Array.isArray(v) ? v.map(String) : String(v);
  return out;
}

const MANAGEMENT_ROUTES = ROUTES.filter((r) => r.auth === 'management');

/**
 * Access is decided by the org, its teams and keys, not by users or their data: a world without
 * seeded users (the default one builds 25 with months of wearable data) for each route's sandbox.
 */
const SMALL = { users: 0, usersElsewhere: 0, feed: 'off' } as const;

interface World {
  c: TestClient;
  bound: TeamRef;
  unbound: TeamRef;
  teamKey: string;
  teamApiKey: string;
}

/**
 * The world each route's matrix starts from, set up in process (`sandbox.dispatch`, without the
 * adapter under test): these calls are not what this file tests, and a
 * third of its requests were theirs. Over both adapters, `management-teams.test.ts` covers the
 * team update (`integration_team_id`), `management-keys.test.ts` team-bound management keys, and
 * `management-credentials.test.ts` the beta-features control route.
 */
async function setUp(c: TestClient): Promise<World> {
  const direct = async (
    method: string,
    surface: 'data' | 'management',
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    const rawBody = new TextEncoder().encode(JSON.stringify(body));
    const res = await c.sandbox.dispatch({
      method,
      surface,
      path,
      query: {},
      headers: { 'content-type': 'application/json', ...headers },
      rawBody,
    });
    const text = new TextDecoder().decode(res.body);
    expect(res.status, `${method} ${path}: ${text}`).toBe(200);
    return JSON.parse(text) as Record<string, any>;
  };
  const mgmt = { 'x-management-key': c.managementKey };
  const [us, eu] = c.creds.teams;
  const bound: TeamRef = { id: us?.team_id as string, region: 'us', integration: 'matrix-bound' };
  const unbound: TeamRef = { id: eu?.team_id as string, region: 'eu', integration: 'matrix-unbound' };
  for (const t of [bound, unbound]) {
    await direct('PATCH', 'management', `/v1/org/${c.orgId}/team/${t.id}`, { integration_team_id: t.integration }, mgmt);
    // Closed beta is a separate rule: enable every team so it never answers first here.
    await direct('PUT', 'data', `/_sandbox/teams/${t.id}/beta_features`, { beta_features: ['lab_accounts'] });
  }
  const key = await direct(
    'POST',
    'management',
    `/v1/org/${c.orgId}/management_key`,
    { label: 'matrix', role: 'team_admin', team_role_bindings: [{ team_id: bound.id }] },
    mgmt,
  );
  return { c, bound, unbound, teamKey: key.key, teamApiKey: us?.api_keys.sandbox as string };
}

// In process, and over real HTTP where the key headers cross a transport.
forAdapters(['fetch', 'express'], 'management key-scope matrix', (adapter) => {
  it("covers the management area's routes and those of other areas", () => {
    const ids = MANAGEMENT_ROUTES.map((r) => r.id);
    for (const id of Object.keys(SCOPES)) expect(ids).toContain(id);
    expect(MANAGEMENT_ROUTES.length).toBeGreaterThanOrEqual(21);
  });

  for (const route of MANAGEMENT_ROUTES) {
    it(`${route.method} ${route.path} (${route.id}, ${scopeOf(route)})`, async () => {
      const w = await setUp(createClient(adapter, SMALL));
      const { c } = w;
      const scope = scopeOf(route);
      const send = (team: TeamRef, headers: Record<string, string>) => {
        const req = buildRequest(route, c.orgId, team);
        return c.mgmt(route.method, req.path, { query: req.query, body: req.body, headers });
      };
      const label = (what: string, res: { status: number; text: string }) => `${what}: ${res.status} ${res.text.slice(0, 300)}`;

      // No key, unknown key, team API key (in its own header and in the management header).
      const anonymousCases: Array<Record<string, string>> = [
        { 'x-management-key': '' },
        { 'x-management-key': 'mg_unknownunknownunknownunknownunknownunkn' },
        { 'x-management-key': '', 'x-service-api-key': w.teamApiKey },
        { 'x-management-key': w.teamApiKey },
      ];
      for (const headers of anonymousCases) {
        const res = await send(w.bound, headers);
        expect(res.status, label(JSON.stringify(headers), res)).toBe(401);
        expect(typeof res.body.detail).toBe('string');
      }

      // Team management key on a team it is not bound to.
      if (scope !== 'any') {
        const res = await send(w.unbound, { 'x-management-key': w.teamKey });
        expect(res.status, label('team key, not bound', res)).toBe(403);
        expect(res.body.detail).toEqual(expect.any(String));
      }
      // Allowed calls must pass access. Once the unbound call got its 403, the request is known to
      // pass schema validation (which runs first), so a 422 then is the handler's own rule, after
      // access; for `any` routes (the area's own, hand-filled) no 422 is expected at all.
      const refused = scope === 'any' ? [401, 403, 422] : [401, 403];
      // Team management key on its bound team.
      const bound = await send(w.bound, { 'x-management-key': w.teamKey });
      if (scope === 'org') expect(bound.status, label('team key on org-level', bound)).toBe(403);
      else {
        expect(refused, label('team key, bound', bound)).not.toContain(bound.status);
        expect(bound.status).toBeLessThan(500);
      }

      // Org key, through both headers (last: it may delete what it names).
      for (const header of ['x-service-org-key', 'x-management-key']) {
        const res = await send(w.bound, header === 'x-management-key' ? {} : { 'x-management-key': '', [header]: c.managementKey });
        expect(refused, label(`org key via ${header}`, res)).not.toContain(res.status);
        expect(res.status).toBeLessThan(500);
      }

      // Off the premium plan, every management route answers 403 naming the plan.
      await c.put(`/_sandbox/orgs/${c.orgId}/plan`, { plan: 'scale' });
      const planned = await send(w.bound, {});
      expect(planned.status, label('scale plan', planned)).toBe(403);
      expect(planned.body.detail).toBe(MANAGEMENT_ERRORS.notPremium(c.orgId, 'scale'));
    });
  }
});

/**
 * 403 before 422 (docs/simulated/management.md): every management route checks access in its
 * route-level `access` hook, which runs before the query and the body are parsed, so a caller
 * without access never learns how its query or body would have been judged.
 */
describe('the access hook answers before a query or body that does not parse', () => {
  const UNKNOWN_ORG = '7d3c1a52-9b1e-4c2f-8a6d-0e5f4b3a2c1d';

  it('every management route has a route-level access hook', () => {
    expect(MANAGEMENT_ROUTES.filter((r) => !r.access).map((r) => r.id)).toEqual([]);
  });

  it('another org answers 403, a team key on a team it is not bound to 403, and only a caller with access the 422', async () => {
    const w = await setUp(createClient('fetch', SMALL));
    const { c } = w;
    const wrongOrg = JSON.stringify({ detail: ACCESS_MESSAGES.wrongOrg });
    const notBound = JSON.stringify({ detail: ACCESS_MESSAGES.teamNotBound });
    // Bodies that no schema accepts; the webhook list's query with a limit out of its bounds.
    const withBody = MANAGEMENT_ROUTES.filter((r) => r.request.body !== undefined);
    const cases = [
      ...withBody.map((route) => ({ route, bad: { body: '5' } })),
      ...MANAGEMENT_ROUTES.filter((r) => r.id === 'webhooks.list').map((route) => ({ route, bad: { query: { limit: '0' } } })),
    ];
    const webhookIds = cases.filter((k) => k.route.id.startsWith('webhooks.')).map((k) => k.route.id);
    expect(webhookIds.sort()).toEqual([
      'webhooks.create',
      'webhooks.headers.put',
      'webhooks.list',
      'webhooks.patch',
      'webhooks.secret.rotate',
    ]);
    const got: unknown[] = [];
    const want: unknown[] = [];
    for (const { route, bad } of cases) {
      const other = buildRequest(route, UNKNOWN_ORG, w.bound);
      const res = await c.mgmt(route.method, other.path, bad);
      got.push({ id: route.id, who: 'other org', status: res.status, text: res.text });
      want.push({ id: route.id, who: 'other org', status: 403, text: wrongOrg });
      if (route.path.includes(':team_id')) {
        const unbound = buildRequest(route, c.orgId, w.unbound);
        const res2 = await c.mgmt(route.method, unbound.path, { ...bad, headers: { 'x-management-key': w.teamKey } });
        got.push({ id: route.id, who: 'team key, not bound', status: res2.status, text: res2.text });
        want.push({ id: route.id, who: 'team key, not bound', status: 403, text: notBound });
      }
      const own = buildRequest(route, c.orgId, w.bound);
      const res3 = await c.mgmt(route.method, own.path, bad);
      got.push({ id: route.id, who: 'with access', status: res3.status });
      want.push({ id: route.id, who: 'with access', status: 422 });
    }
    expect(got).toEqual(want);
  });
});
