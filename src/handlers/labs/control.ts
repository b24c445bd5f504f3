/**
 * Driving lab orders (api-facts B.7) and the lab part of the control plane.
 *
 * Simulates the real sandbox's `POST /v3/order/:order_id/test`: the order walks its path (or a
 * side path that reaches the wanted status) to `final_status` (default: completed), every step
 * at once, or `delay` seconds apart on the sandbox clock; the body's flags (`interpretation`,
 * `result_types`, `has_missing_results`) shape the results it will get. Answers JSON `"Success"`.
 * After the wanted status the order goes on along the same path at its usual pace.
 *
 * Control routes (sandbox only, not part of the real API):
 * - `GET /_sandbox/labs/lifecycle`: per method, the statuses with their high-level status, the
 *   paths of each fate with the time each step takes, and the cancellable statuses.
 * - `GET /_sandbox/labs/scenarios`: the scenario hints (patient zip -> fate, last name -> results).
 * - `GET|PUT /_sandbox/teams/:team_id/labs`: the team's lab order progression, `clock` or `manual`.
 *
 * As the real sandbox: an at-home phlebotomy order stops at requisition_created until an
 * appointment is booked; with the `manual` progression the first call on an `ordered` order stops
 * at the next status whatever `final_status` says (state/labs/order-progression.ts).
 *
 * LIMITATIONS
 * - A `final_status` of another method, or one the order cannot reach, answers 400.
 * - Result flags apply only while the order has no results yet.
 * - Simulation is refused in the production environment (400).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int, uuid } from '../../engine/schemas.js';
import { labLifecycle, labScenarios } from '../../state/labs/lab-control-views.js';
import { ORDER_STATUSES } from '../../state/labs/order-lifecycle.js';
import { simulateOrder } from '../../state/labs/order-actions.js';
import { LABS_PROGRESSIONS } from '../../state/labs/order-progression.js';
import { setTeamProgression } from '../../state/labs/order-changes.js';
import { LabLifecycle, LabScenarios, TeamLabsSettings, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const simulateQuery = lazySchema(() =>
  z.object({
    final_status: z.enum(ORDER_STATUSES as [string, ...string[]]).optional(),
    delay: int({ min: 0, max: 30 * 86400 }).optional(),
  }),
);

const simulateBody = lazySchema(() =>
  z
    .object({
      interpretation: z.enum(['normal', 'abnormal', 'critical', 'unknown']).default('normal'),
      result_types: z.array(z.enum(['numeric', 'range', 'comment', 'coded_value'])).nullish(),
      has_missing_results: z.boolean().nullish(),
    })
    .nullish(),
);

export const labControlRoutes = [
  defineRoute({
    id: 'orders.simulate',
    method: 'POST',
    path: '/v3/order/:order_id/test',
    auth: 'team',
    summary:
      'Sandbox: move an order towards final_status (default completed), optionally delay seconds per step; as the real sandbox, an at-home phlebotomy order waits at requisition_created for a booked appointment.',
    request: { params: lazySchema(() => z.object({ order_id: uuid() })), query: simulateQuery, body: simulateBody },
    responses: {
      200: res(
        lazySchema(() => z.literal('Success')),
        '"Success"',
      ),
      400: 'Unreachable status, other method, or production',
      404: "Order doesn't exist",
      422: 'Validation error',
    },
    handle(ctx, { params, query, body }) {
      simulateOrder(ctx, params.order_id, {
        final_status: query.final_status,
        delay_seconds: query.delay ?? 0,
        flags: body ?? null,
      });
      return reply(200, 'Success' as const);
    },
  }),

  defineRoute({
    id: 'sandbox.labs.lifecycle',
    method: 'GET',
    path: '/_sandbox/labs/lifecycle',
    auth: 'control',
    summary: 'Lab order lifecycle tables: statuses, paths per fate with step times, cancel rules.',
    responses: { 200: res(LabLifecycle, 'OK') },
    handle: () => reply(200, labLifecycle()),
  }),

  defineRoute({
    id: 'sandbox.labs.scenarios',
    method: 'GET',
    path: '/_sandbox/labs/scenarios',
    auth: 'control',
    summary: 'Scenario hints: patient zip codes that choose a fate, last names that shape results.',
    responses: { 200: res(LabScenarios, 'OK') },
    handle: () => reply(200, labScenarios()),
  }),

  defineRoute({
    id: 'sandbox.teams.labs.get',
    method: 'GET',
    path: '/_sandbox/teams/:team_id/labs',
    auth: 'control',
    summary: "How a team's lab orders move: clock (on the sandbox clock) or manual (only POST /v3/order/{id}/test, as the real sandbox).",
    request: { params: lazySchema(() => z.object({ team_id: uuid() })) },
    responses: { 200: res(TeamLabsSettings, '{team_id, progression, set_by}'), 404: 'Team not found' },
    handle: (ctx, { params }) => reply(200, setTeamProgression(ctx.world, params.team_id)),
  }),

  defineRoute({
    id: 'sandbox.teams.labs.put',
    method: 'PUT',
    path: '/_sandbox/teams/:team_id/labs',
    auth: 'control',
    summary:
      'Sets how a team\'s lab orders move ({"progression": "manual"}); orders already placed follow the new mode from their next step.',
    request: {
      params: lazySchema(() => z.object({ team_id: uuid() })),
      body: lazySchema(() => z.object({ progression: z.enum(LABS_PROGRESSIONS as ['clock', 'manual']) })),
    },
    responses: { 200: res(TeamLabsSettings, '{team_id, progression, set_by}'), 404: 'Team not found' },
    handle: (ctx, { params, body }) => reply(200, setTeamProgression(ctx.world, params.team_id, body.progression)),
  }),
];
