/** What the control plane shows of the delivery log: messages, destinations, endpoint state. */
import type { EventEnvelope } from '../../engine/events.js';
import type { World } from '../../engine/world.js';
import type { DeliveryLog } from './attempt-log.js';
import { deliveryOf } from './delivery.js';
import { webhooksError } from './errors.js';
import { attemptOf, type Destination, type Message } from './message.js';
import { webhooksOf, webhookView, type WebhookEndpoint } from './webhooks.js';

function destinationView(dest: Destination, ep: WebhookEndpoint | undefined) {
  const kept = dest.attempts[dest.attempts.length - 1];
  const last = kept === undefined ? undefined : attemptOf(kept);
  return {
    endpoint_id: dest.endpoint_id,
    url: ep?.url ?? last?.url ?? null,
    status: dest.status,
    failure_reason: dest.failure_reason,
    attempts: dest.attempts.length,
    scheduled_attempts: dest.scheduled_attempts,
    last_attempt_at: last?.created_at ?? null,
    next_attempt_at: dest.next_attempt_at === null ? null : new Date(dest.next_attempt_at).toISOString(),
  };
}

function messageView(msg: Message, world: World, endpointId?: string) {
  const store = webhooksOf(world);
  const dests = [...msg.destinations.values()].filter((d) => endpointId === undefined || d.endpoint_id === endpointId);
  return {
    id: msg.id,
    seq: msg.seq,
    event_type: msg.event_type,
    team_id: msg.team_id,
    environment: msg.environment,
    user_id: msg.user_id,
    created_at: msg.created_at,
    payload: JSON.parse(msg.body) as EventEnvelope,
    destinations: dests.map((d) => destinationView(d, store.endpoint(d.endpoint_id))),
  };
}

type MessageFilter = Parameters<DeliveryLog['listMessages']>[0];
type AttemptFilter = Parameters<DeliveryLog['listAttempts']>[0];

/** A page of messages (oldest first) as the control plane shows them, and the `after` of the next page. */
export function listMessages(world: World, filter: MessageFilter, limit: number) {
  const found = deliveryOf(world).log.listMessages(filter, limit);
  const messages = found.map((m) => messageView(m, world, filter.endpoint_id));
  return { messages, next_after: found.length === limit ? (found[found.length - 1]?.seq ?? null) : null };
}

/** A page of delivery attempts (oldest first), and the `after` of the next page. */
export function listAttempts(world: World, filter: AttemptFilter, limit: number) {
  const attempts = deliveryOf(world).log.listAttempts(filter, limit);
  return { attempts, next_after: attempts.length === limit ? (attempts[attempts.length - 1]?.seq ?? null) : null };
}

/** The creation time and outcome of a team environment's first `limit` attempts, in order (the delivery metric). */
export function attemptOutcomes(
  world: World,
  teamId: string,
  environment: string,
  limit: number,
  visit: (createdAt: string, ok: boolean) => void,
): void {
  deliveryOf(world).log.attemptOutcomes(teamId, environment, limit, visit);
}

/** What `attemptOutcomes` counts per step, from the log's counts per five minutes; null past `limit` attempts (log.attemptsPerStep). */
export function attemptsPerStep(
  world: World,
  teamId: string,
  environment: string,
  limit: number,
  window: { firstS: number; stepS: number; steps: number },
): { success: number[]; failed: number[] } | null {
  return deliveryOf(world).log.attemptsPerStep(teamId, environment, limit, window.firstS, window.stepS, window.steps);
}

/** The operational events (what Svix would tell Vital), filtered by endpoint and type. */
export function operationalEvents(
  world: World,
  filter: { endpoint_id?: string | undefined; type?: string | undefined },
): DeliveryLog['operational'] {
  return deliveryOf(world).log.operational.filter(
    (e) =>
      (filter.endpoint_id === undefined || e.endpoint_id === filter.endpoint_id) && (filter.type === undefined || e.type === filter.type),
  );
}

/** One message with its destinations and every attempt, or the 404. */
export function messageDetail(world: World, msgId: string) {
  const engine = deliveryOf(world);
  const msg = engine.log.messages.get(msgId);
  if (!msg) throw webhooksError.messageNotFound();
  return { ...messageView(msg, world), attempts: engine.log.listAttempts({ msg_id: msg.id }, 10_000) };
}

export function endpointState(world: World, ep: WebhookEndpoint) {
  const store = webhooksOf(world);
  return {
    ...webhookView(ep),
    whitelabel_headers: ep.whitelabel_headers,
    team_id: ep.team_id,
    environment: ep.environment,
    signing_keys: store.signingKeys(ep).length,
    failing_since: ep.failing_since === null ? null : new Date(ep.failing_since).toISOString(),
    disabled_reason: ep.disabled_reason,
  };
}
