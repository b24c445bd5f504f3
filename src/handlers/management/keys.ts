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
 * - Lists are answered in one page (`next_cursor` is always null; the reference declares no
 *   cursor parameter, so none is read).
 * - Keys created here have creator `{"type":"management_key"}`; the seeded key `{"type":"vital_staff"}`.
 * - Deleting an unknown key answers 200 `null` (the reference's response is "key or null").
 * - Nothing stops an org from deleting its last org key; `/_sandbox/reset` recovers.
 */
import { z } from 'zod';
import {
  bindingsForRoleRule,
  createManagementKey,
  deleteManagementKey,
  listManagementKeys,
  updateManagementKey,
} from '../../state/management/management-keys.js';
import { requireOrgAdmin } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid, withRules } from '../../engine/schemas.js';
import type { ManagementKey } from '../../engine/tenancy.js';
import { ManagementKey as ManagementKeyWire, ManagementKeyCreated, cursorPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

function managementKeyView(key: ManagementKey): z.input<typeof ManagementKeyWire> {
  return {
    id: key.id,
    label: key.label,
    created_at: key.created_at,
    creator: { ...key.creator },
    role: key.role,
    team_role_bindings: key.role === 'team_admin' ? (key.team_ids ?? []).map((team_id) => ({ team_id })) : null,
  };
}

const roleEnum = lazySchema(() => z.enum(['org_admin', 'team_admin']));
const bindings = lazySchema(() => z.array(z.object({ team_id: uuid() })).nullish());
const orgParams = lazySchema(() => z.object({ org_id: uuid() }));
const keyParams = lazySchema(() => z.object({ org_id: uuid(), key_id: uuid() }));

export const managementKeyRoutes = [
  defineRoute({
    id: 'management.key.list',
    method: 'GET',
    path: '/v1/org/:org_id/management_key',
    auth: 'management',
    summary: 'Management keys of the org without secrets (org key only); team_id keeps team keys bound to it, role keeps one role.',
    request: { params: orgParams, query: lazySchema(() => z.object({ team_id: uuid().nullish(), role: roleEnum.nullish() })) },
    responses: {
      200: res(
        lazySchema(() => cursorPage(ManagementKeyWire)),
        '{data, next_cursor}',
      ),
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, query, access: org }) {
      const data = listManagementKeys(ctx.world, org, query).map(managementKeyView);
      return reply(200, { data, next_cursor: null });
    },
  }),

  defineRoute({
    id: 'management.key.create',
    method: 'POST',
    path: '/v1/org/:org_id/management_key',
    auth: 'management',
    summary: 'Creates a management key (org key only); the secret `key` is shown only in this answer.',
    request: {
      params: orgParams,
      body: lazySchema(() => withRules(z.object({ label: z.string(), role: roleEnum, team_role_bindings: bindings }), bindingsForRoleRule)),
    },
    responses: {
      200: res(ManagementKeyCreated, 'ClientFacingManagementKeyUnhashed'),
      422: 'Bindings missing for team_admin, given for org_admin, or unknown team',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const key = createManagementKey(ctx.world, org, body, ctx.iso());
      return reply(200, { ...managementKeyView(key), key: key.key });
    },
  }),

  defineRoute({
    id: 'management.key.update',
    method: 'PATCH',
    path: '/v1/org/:org_id/management_key/:key_id',
    auth: 'management',
    summary: "Changes a key's label and, for team keys, its team bindings (null keeps a value).",
    request: { params: keyParams, body: lazySchema(() => z.object({ label: z.string().nullish(), team_role_bindings: bindings })) },
    responses: { 200: res(ManagementKeyWire, 'ClientFacingManagementKey'), 404: 'Key not found', 422: 'Bindings on an org key, or empty' },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const key = updateManagementKey(ctx.world, org, params.key_id, body);
      return reply(200, managementKeyView(key));
    },
  }),

  defineRoute({
    id: 'management.key.delete',
    method: 'DELETE',
    path: '/v1/org/:org_id/management_key/:key_id',
    auth: 'management',
    summary: 'Deletes a management key (it stops working at once); answers the key, or null when there was none.',
    request: { params: keyParams },
    responses: {
      200: res(
        lazySchema(() => ManagementKeyWire.nullable()),
        'ClientFacingManagementKey or null',
      ),
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, access: org }) {
      const key = deleteManagementKey(ctx.world, org, params.key_id);
      return reply(200, key ? managementKeyView(key) : null);
    },
  }),
];
