/**
 * The HTTP fault rule (`POST /_sandbox/faults`, a scenario's `faults:` entries): which requests it
 * matches and what it answers instead. One zod schema, shared by the control route and the
 * scenario file; its rules on its own values (one action, a latency range in order, headers and
 * body only with a status, a path pattern that starts with `/`) answer 422 naming the field.
 */
import { z } from 'zod';
import { int, num, uuid, withRules, type RuleFailure } from '../../engine/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

/** The longest latency a rule may add (wall milliseconds). */
const MAX_LATENCY_MS = 300_000;

const FAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const FAULT_MESSAGES = {
  oneAction: 'Give exactly one of status, latency_ms, drop or malformed',
  withStatusOnly: 'headers and body go with a status action only',
  latencyOrder: 'latency_ms as [min, max] needs min <= max',
  pathPattern: 'A path pattern starts with / and names segments, * (one segment; last: any rest) or {param}',
  controlPath: 'Faults never apply to the control plane (/_sandbox/*)',
  unknownRoute: (id: string) => `Unknown route id "${id}" (see GET /_sandbox/routes)`,
  controlRoute: (id: string) => `Route "${id}" is a control-plane route: faults never apply to it`,
  notFound: 'Fault rule not found',
} as const;

const latency = lazySchema(() =>
  z.union([int({ min: 0, max: MAX_LATENCY_MS }), z.tuple([int({ min: 0, max: MAX_LATENCY_MS }), int({ min: 0, max: MAX_LATENCY_MS })])]),
);

const faultMatch = lazySchema(() =>
  z
    .object({
      method: z.enum(FAULT_METHODS).optional().describe('HTTP method (upper case); default any'),
      path: z
        .string()
        .min(1)
        .max(500)
        .optional()
        .describe('A pattern over the API paths: /v2/user/* (a last * matches the rest), /v3/order/{order_id} ({x} or * is one segment)'),
      route: z.string().min(1).max(200).optional().describe('A route id from GET /_sandbox/routes, e.g. users.get'),
      team_id: uuid().optional().describe('Only requests of this team (a team API key); never another team, nor the management API'),
      environment: z.enum(['sandbox', 'production']).optional().describe('Only requests with a key of this environment'),
    })
    .strict(),
);

const faultAction = lazySchema(() =>
  z
    .object({
      status: int({ min: 100, max: 599 }).optional().describe('Answer this status (the real error body for it unless body is given)'),
      headers: z.record(z.string(), z.string()).optional().describe('Headers of the status answer, e.g. {"retry-after": "2"}'),
      body: z.unknown().optional().describe('The JSON body of the status answer'),
      latency_ms: latency.optional().describe('The real answer, this late (wall ms; N or [min, max] drawn from the seeded source)'),
      drop: z.literal(true).optional().describe('Close the connection with no answer'),
      malformed: z.literal(true).optional().describe('A 200 whose JSON body is cut short'),
    })
    .strict(),
);

const PATH_PATTERN =
  /^\/(?:[A-Za-z0-9._~%:@!$&'()+,;=-]+|\*|\{[A-Za-z_][A-Za-z0-9_]*\})?(?:\/(?:[A-Za-z0-9._~%:@!$&'()+,;=-]+|\*|\{[A-Za-z_][A-Za-z0-9_]*\}))*\/?$/;

interface RuleBody {
  match: z.output<typeof faultMatch>;
  action: z.output<typeof faultAction>;
}

/** The rule body's rules on its own values, in the order the 422 reports them. */
function ruleRules(body: RuleBody): RuleFailure | null {
  const { path } = body.match;
  if (path !== undefined) {
    if (!PATH_PATTERN.test(path)) return { path: ['match', 'path'], message: FAULT_MESSAGES.pathPattern, input: path };
    if (path === '/_sandbox' || path.startsWith('/_sandbox/'))
      return { path: ['match', 'path'], message: FAULT_MESSAGES.controlPath, input: path };
  }
  const a = body.action;
  const kinds = [a.status, a.latency_ms, a.drop, a.malformed].filter((v) => v !== undefined).length;
  if (kinds !== 1) return { path: ['action'], message: FAULT_MESSAGES.oneAction };
  if (a.status === undefined && (a.headers !== undefined || a.body !== undefined))
    return { path: ['action', a.headers !== undefined ? 'headers' : 'body'], message: FAULT_MESSAGES.withStatusOnly };
  if (Array.isArray(a.latency_ms) && a.latency_ms[0] > a.latency_ms[1])
    return { path: ['action', 'latency_ms'], message: FAULT_MESSAGES.latencyOrder, input: a.latency_ms };
  return null;
}

/** The rule's fields, built once on first use (shared by the control route's body and the scenario's entry). */
let fields: ReturnType<typeof makeRuleFields> | undefined;
const ruleFields = () => (fields ??= makeRuleFields());

const makeRuleFields = () => ({
  match: faultMatch.default({}).describe('Which requests (every criterion given must hold; none: every API request)'),
  action: faultAction.describe('What to answer instead: {status, headers?, body?}, {latency_ms}, {drop: true} or {malformed: true}'),
  times: int({ min: 1, max: 1_000_000 }).nullish().describe('Faulted answers before the rule retires itself (default unlimited)'),
  probability: num({ min: 0, max: 1 }).nullish().describe('Chance (0 to 1) that a match is faulted, drawn from the seeded source'),
  after: int({ min: 0, max: 1_000_000 }).nullish().describe('Matches let through before the rule applies (default 0)'),
});

/** `POST /_sandbox/faults`. */
export const faultRuleBody = lazySchema(() => withRules(z.object(ruleFields()).strict(), ruleRules));

/** A scenario's `faults:` entry: the same rule, with its team named (`team`) instead of by id. */
export const scenarioFault = lazySchema(() =>
  withRules(
    z
      .object({ ...ruleFields(), team: z.string().min(1).optional().describe('Only requests of this team (a team name of the scenario)') })
      .strict(),
    ruleRules,
  ),
);

export type FaultRuleInput = z.output<typeof faultRuleBody>;
