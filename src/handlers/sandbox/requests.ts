/**
 * The request journal (`GET /_sandbox/requests`): the most recent requests the sandbox answered,
 * newest first, with their route, team, status, duration, bodies of errors (of every request with
 * `--request-log-bodies`), the fields a 422 refused and, for a request no route matched, the
 * routes it nearly hit. Keys are masked to a short prefix.
 *
 * LIMITATIONS
 * - Only the most recent requests are kept (default 1000, `--request-log-size`); bodies are cut at 64 KiB,
 *   and the ring holds at most 4 MiB of bodies (the oldest let theirs go: `body_dropped`).
 * - The journal's own reads and the inspector's requests (header `x-sandbox-inspector`) are not
 *   recorded (nor faulted: docs/simulated/faults.md).
 * - It survives `/_sandbox/reset` (it is what happened); its ids go on counting.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { int } from '../../engine/schemas.js';
import { listRequests, SINCE_FILTER, STATUS_FILTER } from '../../state/sandbox/journal-query.js';
import { RequestPage, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const since = lazySchema(() =>
  z.string().refine((v) => SINCE_FILTER.test(v) || !Number.isNaN(Date.parse(v)), 'Expected a request id (req_N) or an ISO date-time'),
);

export const requestRoutes = [
  defineRoute({
    id: 'sandbox.requests.list',
    method: 'GET',
    path: '/_sandbox/requests',
    auth: 'control',
    summary:
      'The request journal, newest first: filter by status (404, 4xx), route id (users.create, users.*, none), path part, method, team, since (req_N or ISO sandbox time), id (req_N). A read renders at most 256 KiB of bodies (older entries: body_omitted).',
    request: {
      query: lazySchema(() =>
        z.object({
          status: z.string().regex(STATUS_FILTER).optional(),
          route: z.string().min(1).optional(),
          path: z.string().min(1).optional(),
          method: z.string().min(1).optional(),
          team_id: z.string().min(1).optional(),
          since: since.optional(),
          id: z.string().regex(SINCE_FILTER).optional().describe('One request (req_N), with its bodies'),
          limit: int({ min: 1, max: 10000 }).default(100),
        }),
      ),
    },
    responses: { 200: res(RequestPage, 'OK') },
    handle: (ctx, { query }) => reply(200, listRequests(ctx.world, query)),
  }),
];
