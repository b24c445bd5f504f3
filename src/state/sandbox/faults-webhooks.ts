/**
 * Webhook delivery faults (issue 42): rehearsing the real service's at-least-once delivery with no
 * order promise (`../shared/reference/webhooks.md` section 2, "Idempotency"). A rule
 * (`POST /_sandbox/faults/webhooks`, a scenario's `webhook_faults:`) applies to the next `times`
 * messages (default 1) delivered to a matching endpoint, when each is first queued:
 *
 * - `duplicate`: the message is delivered twice (same `svix-id`, each attempt freshly signed);
 * - `out_of_order`: the message is held until the next message to that endpoint has been queued,
 *   then delivered after it (or after `seconds`, default 60, of sandbox time if none comes);
 * - `delayed`: the first attempt waits `seconds` (required) of sandbox time;
 * - `stale_timestamp`: the first attempt's `svix-timestamp` is `seconds` (default 600, more than
 *   the 5-minute tolerance) in the past, correctly signed: a verifying receiver refuses it, and
 *   the retry (signed now) is accepted.
 *
 * Rules live in the world: a reset drops them (a scenario declares them again). Deterministic:
 * matched in order, no randomness.
 */
import { z } from 'zod';
import { lazySchema } from '../../engine/lazy-schema.js';
import { int } from '../../engine/schemas.js';
import { withRules } from '../../engine/schemas.js';
import { type World, worldSlot } from '../../engine/world.js';
import { noteFaultKind } from './report-counters.js';

const WEBHOOK_FAULTS = ['duplicate', 'out_of_order', 'delayed', 'stale_timestamp'] as const;
export type WebhookFaultKind = (typeof WEBHOOK_FAULTS)[number];

/** The 5-minute tolerance of the verifying libraries. */
const TOLERANCE_SECONDS = 300;
const DEFAULT_SECONDS: Record<WebhookFaultKind, number | null> = { duplicate: null, out_of_order: 60, delayed: null, stale_timestamp: 600 };
const MAX_SECONDS = 7 * 86400;

const WEBHOOK_FAULT_TEXTS = {
  delayNeedsSeconds: 'A delayed fault needs seconds (the delay, on the sandbox clock)',
  staleTooRecent: `A stale timestamp is more than ${TOLERANCE_SECONDS} seconds old (the receivers' tolerance)`,
  noSeconds: 'A duplicate takes no seconds',
} as const;

const ruleFields = () => ({
  fault: z.enum(WEBHOOK_FAULTS).describe('duplicate, out_of_order, delayed or stale_timestamp'),
  event_type: z.string().min(1).max(200).nullish().describe('Only messages of this event type (default any)'),
  seconds: int({ min: 1, max: MAX_SECONDS })
    .nullish()
    .describe('delayed: the delay (required); stale_timestamp: how old (default 600); out_of_order: the longest hold (default 60)'),
  times: int({ min: 1, max: 1_000_000 }).nullish().describe('Messages faulted before the rule retires (default 1)'),
});

type RuleInput = { fault: WebhookFaultKind; seconds?: number | null | undefined };

function rules(b: RuleInput) {
  if (b.fault === 'delayed' && (b.seconds ?? null) === null) return { path: ['seconds'], message: WEBHOOK_FAULT_TEXTS.delayNeedsSeconds };
  if (b.fault === 'duplicate' && (b.seconds ?? null) !== null)
    return { path: ['seconds'], message: WEBHOOK_FAULT_TEXTS.noSeconds, input: b.seconds };
  if (b.fault === 'stale_timestamp' && b.seconds != null && b.seconds <= TOLERANCE_SECONDS)
    return { path: ['seconds'], message: WEBHOOK_FAULT_TEXTS.staleTooRecent, input: b.seconds };
  return null;
}

/** `POST /_sandbox/faults/webhooks`. */
export const webhookFaultBody = lazySchema(() =>
  withRules(
    z
      .object({
        ...ruleFields(),
        endpoint_id: z.string().min(1).max(100).nullish().describe('Only this endpoint (default every endpoint)'),
      })
      .strict(),
    rules,
  ),
);

/** A scenario's `webhook_faults:` entry (every endpoint). */
export const scenarioWebhookFault = lazySchema(() => withRules(z.object(ruleFields()).strict(), rules));

export type WebhookFaultInput = z.output<typeof webhookFaultBody>;

export interface WebhookFault {
  id: string;
  fault: WebhookFaultKind;
  endpoint_id: string | null;
  event_type: string | null;
  seconds: number | null;
  times: number;
  remaining: number;
  fired: number;
}

interface Store {
  rules: WebhookFault[];
  next: number;
}

const webhookFaults = worldSlot('sandbox.faults.webhooks', (): Store => ({ rules: [], next: 0 }));
const storeOf = (world: World): Store | undefined => webhookFaults.peek(world);

export function addWebhookFault(world: World, input: WebhookFaultInput): WebhookFault {
  const store = webhookFaults(world);
  const times = input.times ?? 1;
  const rule: WebhookFault = {
    id: `whfault_${++store.next}`,
    fault: input.fault,
    endpoint_id: input.endpoint_id ?? null,
    event_type: input.event_type ?? null,
    seconds: input.seconds ?? DEFAULT_SECONDS[input.fault],
    times,
    remaining: times,
    fired: 0,
  };
  store.rules.push(rule);
  return { ...rule };
}

export function listWebhookFaults(world: World): WebhookFault[] {
  return (storeOf(world)?.rules ?? []).map((r) => ({ ...r }));
}

export function clearWebhookFaults(world: World): number {
  const store = storeOf(world);
  const n = store?.rules.length ?? 0;
  if (store) store.rules.length = 0;
  return n;
}

/**
 * The fault for one message to one endpoint, taken now (its rule counts it, and retires when
 * spent), or null. Without rules (the usual case) one Map lookup.
 */
export function takeWebhookFault(world: World, endpointId: string, eventType: string): WebhookFault | null {
  const store = storeOf(world);
  if (store === undefined || store.rules.length === 0) return null;
  const i = store.rules.findIndex(
    (r) => (r.endpoint_id === null || r.endpoint_id === endpointId) && (r.event_type === null || r.event_type === eventType),
  );
  if (i < 0) return null;
  const rule = store.rules[i]!;
  rule.remaining--;
  rule.fired++;
  if (rule.remaining <= 0) store.rules.splice(i, 1);
  noteFaultKind(world, `webhook:${rule.fault}`);
  return rule;
}
