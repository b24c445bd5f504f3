/**
 * The sandbox control plane `/_sandbox/*` (design.md section 5): a reserved prefix outside the
 * real API's URL space. Open on loopback; with an admin token it needs `Authorization: Bearer`.
 *
 * LIMITATIONS
 * - The clock only moves forward; there is no rewind (reset instead).
 */
import { z } from 'zod';
import { credentialsOf } from '../../engine/credentials.js';
import { defineRoute, type Ctx, reply } from '../../engine/route.js';
import { int, num, withRules } from '../../engine/schemas.js';
import { advanceClock, advanceRules } from '../../state/sandbox/clock.js';
import { AdvanceDone, ClockState, Health, JobList, JournalPage, ResetDone, SandboxCredentials, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';
import { listNotices } from '../../state/sandbox/notices.js';

function clockView(ctx: Ctx): z.input<typeof ClockState> {
  const { clock } = ctx.world;
  return { now: clock.iso(), mode: clock.mode, scale: clock.scale };
}

const advanceBody = lazySchema(() =>
  withRules(
    z.object({
      seconds: num({ min: 0 }).optional(),
      duration: z.string().optional(),
      until: z.string().optional(),
    }),
    advanceRules,
  ),
);

export const controlRoutes = [
  defineRoute({
    id: 'sandbox.health',
    method: 'GET',
    path: '/_sandbox/health',
    auth: 'control',
    summary: 'Liveness.',
    responses: { 200: res(Health, 'OK') },
    handle: () => reply(200, { status: 'ok' }),
  }),

  defineRoute({
    id: 'sandbox.credentials',
    method: 'GET',
    path: '/_sandbox/credentials',
    auth: 'control',
    summary: "Base URL, management URL, org id, management key and each team's keys (first team first).",
    responses: { 200: res(SandboxCredentials, 'OK') },
    handle: (ctx) => reply(200, credentialsOf(ctx.world)),
  }),

  defineRoute({
    id: 'sandbox.clock.get',
    method: 'GET',
    path: '/_sandbox/clock',
    auth: 'control',
    summary: 'The sandbox clock: {now, mode, scale}.',
    responses: { 200: res(ClockState, 'OK') },
    handle: (ctx) => reply(200, clockView(ctx)),
  }),

  defineRoute({
    id: 'sandbox.clock.advance',
    method: 'POST',
    path: '/_sandbox/clock/advance',
    auth: 'control',
    summary:
      'Moves the clock forward ({"seconds": N}, {"duration": "2h" | "P1DT2H"} or {"until": ISO}), runs due jobs, waits for deliveries.',
    request: { body: advanceBody },
    responses: {
      200: res(
        AdvanceDone,
        '{now, mode, scale}, what the advance caused (events, deliveries) and which endpoints make the wearable feed run',
      ),
      422: 'No valid amount given, or more than 366 days',
    },
    async handle(ctx, { body }) {
      const report = await advanceClock(ctx.world, body);
      return reply(200, { ...clockView(ctx), ...report });
    },
  }),

  defineRoute({
    id: 'sandbox.reset',
    method: 'POST',
    path: '/_sandbox/reset',
    auth: 'control',
    summary: 'A fresh world, optionally with another seed.',
    request: { body: lazySchema(() => z.object({ seed: int().optional() }).nullish()) },
    responses: { 200: res(ResetDone, 'OK') },
    handle(ctx, { body }) {
      ctx.reset(body?.seed);
      return reply(200, { status: 'ok', seed: body?.seed ?? null });
    },
  }),

  defineRoute({
    id: 'sandbox.events.list',
    method: 'GET',
    path: '/_sandbox/events',
    auth: 'control',
    summary:
      'The event journal, oldest first, filtered by team, environment, type, prefix or user; and the sandbox notices (a demo user expired).',
    request: {
      query: lazySchema(() =>
        z.object({
          team_id: z.string().optional(),
          environment: z.enum(['sandbox', 'production']).optional(),
          event_type: z.string().optional(),
          event_type_prefix: z.string().optional(),
          user_id: z.string().optional(),
          after_seq: int({ min: 0 }).optional(),
          limit: int({ min: 1, max: 10000 }).default(1000),
        }),
      ),
    },
    responses: { 200: res(JournalPage, 'OK') },
    handle(ctx, { query }) {
      const { limit, ...filter } = query;
      const events = ctx.world.events.list(filter, limit);
      const notices = listNotices(ctx.world, filter);
      return reply(200, { events, total: events.length, last_seq: ctx.world.events.emitted, notices });
    },
  }),

  defineRoute({
    id: 'sandbox.jobs.list',
    method: 'GET',
    path: '/_sandbox/jobs',
    auth: 'control',
    summary: 'Pending scheduled jobs, soonest first.',
    request: { query: lazySchema(() => z.object({ limit: int({ min: 1, max: 1000 }).default(100) })) },
    responses: { 200: res(JobList, 'OK') },
    handle(ctx, { query }) {
      const jobs = ctx.world.scheduler.list(query.limit).map((j) => ({ at: new Date(j.at).toISOString(), label: j.label }));
      return reply(200, { jobs, pending: ctx.world.scheduler.pending() });
    },
  }),
];
