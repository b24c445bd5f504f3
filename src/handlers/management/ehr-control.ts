/**
 * Control-plane routes of the EHR integration (`/_sandbox/*`): what a dashboard URL opens, and
 * what a team environment's EHR pipelines received.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { environmentParam } from '../../state/management/common.js';
import { liveDashboardSession } from '../../state/management/ehr.js';
import { teamEhrDeliveries } from '../../state/management/ehr-pipelines.js';
import { EhrDashboardSession, EhrDeliveries, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const ehrControlRoutes = [
  defineRoute({
    id: 'sandbox.ehr_dashboard.get',
    method: 'GET',
    path: '/_sandbox/ehr_dashboard/:token',
    auth: 'control',
    summary: 'The session a dashboard URL opens (member, team, feature, modality, environment), until it expires.',
    request: { params: lazySchema(() => z.object({ token: z.string().min(1).max(100) })) },
    responses: {
      200: res(EhrDashboardSession, '{org_id, member_id, team_id, feature, modality, environment, created_at, expires_at}'),
      404: 'Unknown or expired',
    },
    handle(ctx, { params }) {
      const { token: _token, expires_ms, ...rest } = liveDashboardSession(ctx.world, params.token, ctx.now());
      return reply(200, { ...rest, expires_at: new Date(expires_ms).toISOString() });
    },
  }),

  defineRoute({
    id: 'sandbox.ehr_pipelines.deliveries',
    method: 'GET',
    path: '/_sandbox/ehr_pipelines/:team_id/:environment',
    auth: 'control',
    summary: "Lab results the team environment's EHR pipelines received, oldest first (the last 1000).",
    request: { params: lazySchema(() => z.object({ team_id: uuid(), environment: environmentParam() })) },
    responses: { 200: res(EhrDeliveries, '{deliveries: [...]}'), 404: 'Team not found' },
    handle: (ctx, { params }) =>
      reply(200, { deliveries: teamEhrDeliveries(ctx.world, params.team_id, params.environment).map((d) => ({ ...d })) }),
  }),
];
