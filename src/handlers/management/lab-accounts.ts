/**
 * Lab accounts, a closed-beta feature (`lab_accounts`; api-facts G marks the management lab
 * account endpoints closed beta; management OpenAPI `ClientFacingLabAccount`,
 * `LabAccountsResponse`, `LabAccountResponse`, `LabAccountTeamIdAllowlistUpdateBody`; data
 * OpenAPI `GET /v3/lab_test/lab_account`, `GetTeamLabAccountsResponse`).
 *
 * Simulates the org's lab accounts (a Quest and a Labcorp account per environment in `us`),
 * listing them (filters `lab_account_id`, `team_id`, `status`), replacing an account's team
 * allowlist, and the data-side list of the accounts the calling team is allowed to use.
 *
 * Closed beta (spec 7.2): a team not enabled for `lab_accounts` (control plane
 * `PUT /_sandbox/teams/:team_id/beta_features`) gets 403
 * `{"detail":{"error_type":"closed_beta","error_message":...,"feature":"lab_accounts"}}`.
 * Management side, the teams concerned decide: with `team_id` (list) or a new allowlist (update),
 * each of those teams must be enabled; otherwise at least one of the org's teams in the region.
 *
 * LIMITATIONS
 * - Accounts are fixed per org (none in `eu`); status never changes; lab orders do not consult them.
 * - Teams created later are not added to allowlists by themselves.
 */
import { z } from 'zod';
import { requireOrg, requireOrgAdmin } from '../../state/management/access.js';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { envRegionParams } from '../../state/management/common.js';
import {
  LAB_ACCOUNT_FEATURE,
  labAccountView,
  listOrgLabAccounts,
  listTeamLabAccounts,
  updateLabAccountAllowlist,
} from '../../state/management/lab-accounts.js';
import { LabAccount, listOf, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const statusEnum = lazySchema(() => z.enum(['active', 'pending', 'suspended', 'ready_to_launch']));

export const labAccountRoutes = [
  defineRoute({
    id: 'management.lab_account.list',
    method: 'GET',
    path: '/v1/org/:org_id/lab_account/:env/:region',
    auth: 'management',
    summary: "Closed beta (lab_accounts). The org's lab accounts in the environment and region; filters lab_account_id, team_id, status.",
    request: {
      params: envRegionParams,
      query: lazySchema(() => z.object({ lab_account_id: uuid().nullish(), team_id: uuid().nullish(), status: statusEnum.nullish() })),
    },
    responses: {
      200: res(
        lazySchema(() => listOf('data', LabAccount)),
        '{data}',
      ),
      403: 'Closed beta, team key without team_id, or not bound',
    },
    access: (ctx, p) => requireOrg(ctx, p.org_id),
    handle: (ctx, { params, query }) =>
      reply(200, { data: listOrgLabAccounts(ctx, params.org_id, params.env, params.region, query).map(labAccountView) }),
  }),

  defineRoute({
    id: 'management.lab_account.update',
    method: 'PATCH',
    path: '/v1/org/:org_id/lab_account/:env/:region/:account_id',
    auth: 'management',
    summary: 'Closed beta (lab_accounts). Replaces the team allowlist of a lab account (org key only).',
    request: {
      params: lazySchema(() => envRegionParams.extend({ account_id: uuid() })),
      body: lazySchema(() => z.object({ team_id_allowlist: z.array(uuid()) })),
    },
    responses: {
      200: res(
        lazySchema(() => z.object({ lab_account: LabAccount })),
        '{lab_account}',
      ),
      403: 'Closed beta or team key',
      404: 'Lab account not found',
      422: 'A team not in the org and region',
    },
    access: (ctx, p) => requireOrgAdmin(ctx, p.org_id),
    handle(ctx, { params, body, access: org }) {
      const account = updateLabAccountAllowlist(ctx.world, org, params.env, params.region, params.account_id, body.team_id_allowlist);
      return reply(200, { lab_account: labAccountView(account) });
    },
  }),

  defineRoute({
    id: 'lab_test.lab_account.list',
    method: 'GET',
    path: '/v3/lab_test/lab_account',
    auth: 'team',
    beta: LAB_ACCOUNT_FEATURE,
    summary: 'Closed beta (lab_accounts). The lab accounts the calling team may use in its environment; filters lab_account_id, status.',
    request: { query: lazySchema(() => z.object({ lab_account_id: uuid().nullish(), status: statusEnum.nullish() })) },
    responses: {
      200: res(
        lazySchema(() => listOf('data', LabAccount)),
        '{data}',
      ),
      403: 'Closed beta',
    },
    handle: (ctx, { query }) => reply(200, { data: listTeamLabAccounts(ctx, query).map(labAccountView) }),
  }),
];
