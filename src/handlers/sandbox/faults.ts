/**
 * HTTP faults on the control plane (issue 28; the rules: src/engine/faults.ts):
 *
 * - `POST /_sandbox/faults` `{match?, action, times?, probability?, after?}`: adds a rule,
 *   answers it with its id;
 * - `GET /_sandbox/faults`: the rules with their remaining times, matches and faulted answers;
 * - `DELETE /_sandbox/faults/:fault_id`, `DELETE /_sandbox/faults`: removes one, or all.
 *
 * A reset drops every rule; a scenario's `faults:` are declared again with it.
 *
 * LIMITATIONS
 * - A rule's `method` is the request's own: a HEAD request is answered as its GET (a GET rule
 *   matches it).
 * - At most 100 rules per world (409); statuses 200 to 599; headers as HTTP allows, framing
 *   headers excluded (docs/simulated/faults.md "What a rule may say").
 * - Never matched: the control plane, requests with `x-sandbox-inspector`; the test receivers
 *   and the sandbox's pages only by a rule that names them.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { addFault, clearFaults, listFaults, removeFault } from '../../engine/faults.js';
import { faultRuleBody } from '../../state/sandbox/faults-schema.js';
import { FaultList, FaultRuleView, FaultsCleared, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const faultRoutes = [
  defineRoute({
    id: 'sandbox.faults.add',
    method: 'POST',
    path: '/_sandbox/faults',
    auth: 'control',
    summary:
      'Adds an HTTP fault rule: requests matching {method, path, route, team_id, environment} answer a status, late, dropped or malformed.',
    request: { body: faultRuleBody },
    responses: { 200: res(FaultRuleView, 'The rule with its id'), 422: 'A bad rule: the field is named' },
    handle: (ctx, { body }) => reply(200, addFault(ctx.world, ctx.routes, body)),
  }),

  defineRoute({
    id: 'sandbox.faults.list',
    method: 'GET',
    path: '/_sandbox/faults',
    auth: 'control',
    summary: 'The HTTP fault rules in force, in the order they are tried, with remaining times, matches and faulted answers.',
    responses: { 200: res(FaultList, '{faults}') },
    handle: (ctx) => reply(200, { faults: listFaults(ctx.world) }),
  }),

  defineRoute({
    id: 'sandbox.faults.remove',
    method: 'DELETE',
    path: '/_sandbox/faults/:fault_id',
    auth: 'control',
    summary: 'Removes one HTTP fault rule.',
    request: { params: lazySchema(() => z.object({ fault_id: uuid() })) },
    responses: { 200: res(FaultRuleView, 'The rule removed'), 404: 'Unknown rule' },
    handle: (ctx, { params }) => reply(200, removeFault(ctx.world, params.fault_id)),
  }),

  defineRoute({
    id: 'sandbox.faults.clear',
    method: 'DELETE',
    path: '/_sandbox/faults',
    auth: 'control',
    summary: 'Removes every HTTP fault rule.',
    responses: { 200: res(FaultsCleared, '{removed}') },
    handle: (ctx) => reply(200, { removed: clearFaults(ctx.world) }),
  }),
];
