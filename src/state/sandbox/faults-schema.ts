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
/** Rules one world holds at most (a 409 past it): each request is tried against every rule. */
export const MAX_FAULT_RULES = 100;
/** Headers one status action may set, and the longest value. */
const MAX_FAULT_HEADERS = 50;
const MAX_HEADER_VALUE = 4096;
/** An HTTP header name: a token (RFC 9110 section 5.1). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header value: visible characters, spaces and tabs; no CR, LF, NUL or other control character (RFC 9110 section 5.5). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/**
 * Headers the adapter owns (the answer's framing and the connection): a rule setting them would
 * make an answer the client cannot read, or one that differs between adapters.
 */
const FRAMING_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
]);

const FAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const FAULT_MESSAGES = {
  oneAction: 'Give exactly one of status, latency_ms, drop or malformed',
  withStatusOnly: 'headers and body go with a status action only',
  latencyOrder: 'latency_ms as [min, max] needs min <= max',
  pathPattern: 'A path pattern starts with / and names segments, * (one segment; last: any rest) or {param}',
  controlPath: 'Faults never apply to the control plane (/_sandbox/*); of it only the test receivers (/_sandbox/receiver/...) can be named',
  headerName: (name: string) => `"${name}" is not an HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only)`,
  headerValue: (name: string) => `The value of header "${name}" holds a character HTTP forbids (CR, LF, NUL or another control character)`,
  headerFraming: (name: string) => `Header "${name}" frames the answer or the connection: the sandbox sets it, a rule cannot`,
  headerValueLength: `A header value is at most ${MAX_HEADER_VALUE} characters`,
  tooManyHeaders: `A fault sets at most ${MAX_FAULT_HEADERS} headers`,
  tooMany: `A world holds at most ${MAX_FAULT_RULES} fault rules: remove some first (DELETE /_sandbox/faults/:fault_id or DELETE /_sandbox/faults)`,
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
      status: int({ min: 200, max: 599 })
        .optional()
        .describe('Answer this status, 200 to 599 (a 1xx is no final answer), with the real error body for it unless body is given'),
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

/** The test receivers: the one part of /_sandbox a rule may name (their answers are the app's webhook deliveries'). */
const RECEIVER_PREFIX = '/_sandbox/receiver/';

/** The first header of a status action that HTTP (or the adapter) would not carry. */
function headerProblem(headers: Record<string, string>): RuleFailure | null {
  const names = Object.keys(headers);
  if (names.length > MAX_FAULT_HEADERS) return { path: ['action', 'headers'], message: FAULT_MESSAGES.tooManyHeaders };
  for (const name of names) {
    const value = headers[name] as string;
    const at = ['action', 'headers', name];
    if (!HEADER_NAME.test(name)) return { path: at, message: FAULT_MESSAGES.headerName(name), input: name };
    if (FRAMING_HEADERS.has(name.toLowerCase())) return { path: at, message: FAULT_MESSAGES.headerFraming(name), input: name };
    if (value.length > MAX_HEADER_VALUE) return { path: at, message: FAULT_MESSAGES.headerValueLength };
    if (!HEADER_VALUE.test(value)) return { path: at, message: FAULT_MESSAGES.headerValue(name), input: value };
  }
  return null;
}

interface RuleBody {
  match: z.output<typeof faultMatch>;
  action: z.output<typeof faultAction>;
}

/** The rule body's rules on its own values, in the order the 422 reports them. */
function ruleRules(body: RuleBody): RuleFailure | null {
  const { path } = body.match;
  if (path !== undefined) {
    if (!PATH_PATTERN.test(path)) return { path: ['match', 'path'], message: FAULT_MESSAGES.pathPattern, input: path };
    if ((path === '/_sandbox' || path.startsWith('/_sandbox/')) && !path.startsWith(RECEIVER_PREFIX))
      return { path: ['match', 'path'], message: FAULT_MESSAGES.controlPath, input: path };
  }
  const a = body.action;
  if (a.headers !== undefined) {
    const problem = headerProblem(a.headers);
    if (problem) return problem;
  }
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
