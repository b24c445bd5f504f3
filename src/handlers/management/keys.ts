/**
 * Management keys (spec 5; api-facts A.14; management OpenAPI `CreateManagementKeyBody`,
 * `PatchManagementKeyBody`, `ClientFacingManagementKey`, `ClientFacingManagementKeyUnhashed`).
 *
 * Simulates create (role `org_admin` or `team_admin` with team bindings; the secret `key` is in
 * the create answer only), list (filters `team_id`, `role`), patch (label, bindings) and delete.
 * Only org keys may manage keys. A team key bound to two or more teams can only be made here
 * (spec 5.5). A created key works at once; a deleted key stops at once.
 *
 * LIMITATIONS
 * - Lists are answered in one page (`next_cursor` is always null).
 * - Keys created here have creator `{"type":"management_key"}`; the seeded key `{"type":"vital_staff"}`.
 * - Deleting an unknown key answers 200 `null` (the reference's response is "key or null").
 * - Nothing stops an org from deleting its last org key; `/_sandbox/reset` recovers.
 */
import { z } from 'zod';
import { notFound, validationError, valueError, type ValidationItem } from '../../engine/errors.js';
import { json } from '../../engine/http-types.js';
import { requireOrgAdmin } from '../../state/management/access.js';
import { defineRoute, type Ctx } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import type { ManagementKey, Org } from '../../engine/tenancy.js';

export function managementKeyView(key: ManagementKey) {
  return {
    id: key.id,
    label: key.label,
    created_at: key.created_at,
    creator: { ...key.creator },
    role: key.role,
    team_role_bindings: key.role === 'team_admin' ? (key.team_ids ?? []).map((team_id) => ({ team_id })) : null,
  };
}

const roleEnum = z.enum(['org_admin', 'team_admin']);
const bindings = z.array(z.object({ team_id: uuid() })).nullish();
const orgParams = z.object({ org_id: uuid() });
const keyParams = z.object({ org_id: uuid(), key_id: uuid() });

/** The distinct team ids of bindings, each a live team of the org (422 naming the bad one). */
function boundTeamIds(ctx: Ctx, org: Org, list: Array<{ team_id: string }>): string[] {
  const items: ValidationItem[] = [];
  const out: string[] = [];
  list.forEach((b, i) => {
    const team = ctx.world.tenancy.teams.get(b.team_id);
    if (!team || team.org_id !== org.id) {
      const message = `Team ${b.team_id} is not a team of this org`;
      items.push({ type: 'value_error', loc: ['body', 'team_role_bindings', i, 'team_id'], msg: `Value error, ${message}`, input: b.team_id, ctx: { error: message } });
    } else if (!out.includes(b.team_id)) {
      out.push(b.team_id);
    }
  });
  if (items.length > 0) throw validationError(items);
  return out;
}

function findKey(ctx: Ctx, org: Org, keyId: string): ManagementKey | undefined {
  const key = ctx.world.tenancy.managementKeysById.get(keyId);
  return key && key.org_id === org.id ? key : undefined;
}

export const managementKeyRoutes = [
  defineRoute({
    id: 'management.key.list',
    method: 'GET',
    path: '/v1/org/:org_id/management_key',
    auth: 'management',
    summary: 'Management keys of the org without secrets (org key only); team_id keeps team keys bound to it, role keeps one role.',
    request: { params: orgParams, query: z.object({ team_id: uuid().nullish(), role: roleEnum.nullish(), next_cursor: z.string().nullish() }) },
    responses: { 200: '{data, next_cursor}' },
    handle(ctx, { params, query }) {
      const org = requireOrgAdmin(ctx, params.org_id);
      if (query.next_cursor) throw valueError(['query', 'next_cursor'], 'Invalid cursor: pass the next_cursor of a previous answer', query.next_cursor);
      const data = ctx.world.tenancy
        .orgManagementKeys(org.id)
        .filter((k) => (!query.role || k.role === query.role) && (!query.team_id || (k.role === 'team_admin' && (k.team_ids ?? []).includes(query.team_id))))
        .map(managementKeyView);
      return json({ data, next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.key.create',
    method: 'POST',
    path: '/v1/org/:org_id/management_key',
    auth: 'management',
    summary: 'Creates a management key (org key only); the secret `key` is shown only in this answer.',
    request: { params: orgParams, body: z.object({ label: z.string(), role: roleEnum, team_role_bindings: bindings }) },
    responses: { 200: 'ClientFacingManagementKeyUnhashed', 422: 'Bindings missing for team_admin, given for org_admin, or unknown team' },
    handle(ctx, { params, body }) {
      const org = requireOrgAdmin(ctx, params.org_id);
      const list = body.team_role_bindings ?? [];
      let teamIds: string[] | null = null;
      if (body.role === 'team_admin') {
        if (list.length === 0) throw valueError(['body', 'team_role_bindings'], 'A team_admin key needs at least one team role binding', body.team_role_bindings ?? null);
        teamIds = boundTeamIds(ctx, org, list);
      } else if (list.length > 0) {
        throw valueError(['body', 'team_role_bindings'], 'An org_admin key acts on the whole org and takes no team role bindings', body.team_role_bindings);
      }
      const world = ctx.world;
      const key = world.tenancy.addManagementKey({
        id: world.ids.uuid('management-key', org.id),
        org_id: org.id,
        label: body.label,
        key: `mg_${world.ids.token('management-key-secret', 40, org.id)}`,
        role: body.role,
        team_ids: teamIds,
        created_at: ctx.iso(),
        creator: { type: 'management_key' },
      });
      return json({ ...managementKeyView(key), key: key.key });
    },
  }),

  defineRoute({
    id: 'management.key.update',
    method: 'PATCH',
    path: '/v1/org/:org_id/management_key/:key_id',
    auth: 'management',
    summary: 'Changes a key\'s label and, for team keys, its team bindings (null keeps a value).',
    request: { params: keyParams, body: z.object({ label: z.string().nullish(), team_role_bindings: bindings }) },
    responses: { 200: 'ClientFacingManagementKey', 404: 'Key not found', 422: 'Bindings on an org key, or empty' },
    handle(ctx, { params, body }) {
      const org = requireOrgAdmin(ctx, params.org_id);
      const key = findKey(ctx, org, params.key_id);
      if (!key) throw notFound('Management key not found');
      let teamIds: string[] | undefined;
      if (body.team_role_bindings !== null && body.team_role_bindings !== undefined) {
        if (key.role === 'org_admin') throw valueError(['body', 'team_role_bindings'], 'An org_admin key takes no team role bindings', body.team_role_bindings);
        if (body.team_role_bindings.length === 0) throw valueError(['body', 'team_role_bindings'], 'A team_admin key needs at least one team role binding', body.team_role_bindings);
        teamIds = boundTeamIds(ctx, org, body.team_role_bindings);
      }
      if (body.label !== null && body.label !== undefined) key.label = body.label;
      if (teamIds) key.team_ids = teamIds;
      return json(managementKeyView(key));
    },
  }),

  defineRoute({
    id: 'management.key.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/management_key/:key_id',
    auth: 'management',
    summary: 'Deletes a management key (it stops working at once); answers the key, or null when there was none.',
    request: { params: keyParams },
    responses: { 200: 'ClientFacingManagementKey or null' },
    handle(ctx, { params }) {
      const org = requireOrgAdmin(ctx, params.org_id);
      const key = findKey(ctx, org, params.key_id);
      if (!key) return json(null);
      ctx.world.tenancy.removeManagementKey(key.id);
      return json(managementKeyView(key));
    },
  }),
];
