/**
 * Webhook delivery (design.md section 4, `../shared/reference/webhooks.md` section 2): each event
 * that passed the team allowlist becomes one signed message (`message.ts`), delivered to every
 * enabled endpoint of its team environment whose `filter_types` match. Every attempt goes through
 * the injected transport (`transport.ts`; default the global `fetch`), is recorded in full
 * (`attempt-log.ts`), and failures are retried on the sandbox clock by the retry policy
 * (`retry-policy.ts`): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then the message fails for that endpoint.
 *
 * Timing (`endpoint-queue.ts`): attempts to one endpoint run one at a time in event order,
 * different endpoints concurrently. The first attempt starts at once (tracked, so `settle()` waits
 * for it). In manual clock mode the clock does not pass an attempt in flight that the advance
 * caused (one barrier per sandbox time), and attempts started by requests served while it waits
 * are deferred behind the advance's own in their endpoint's lane; in realtime mode attempts are
 * only tracked, so a slow receiver never blocks the clock.
 *
 * A receiver that never answers (`backlog.ts`): once an attempt to an endpoint times out, the
 * scheduled attempts queued to it before then, or starting within 60 s of sandbox time, are
 * recorded as failed without being sent (one timeout per endpoint per retry step, not one per
 * message), and a failing endpoint holds at most MAX_PENDING_PER_ENDPOINT pending messages (one
 * that answers, MAX_PENDING_HEALTHY).
 *
 * Retry delays have no jitter by default (Svix adds +-20%); `PUT /_sandbox/webhooks/settings {"jitter": true}` turns seeded jitter on.
 */
import type { JournalEntry } from '../../engine/events.js';
import { jobKind } from '../../engine/job-kinds.js';
import { worldLogOf } from '../../engine/persist.js';
import { unitFloat } from '../../engine/rng.js';
import type { Partition } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { DeliveryLog, type OperationalEndpoint, type OperationalType } from './attempt-log.js';
import { BACKLOG_FULL, MAX_PENDING_HEALTHY, MAX_PENDING_PER_ENDPOINT, NOT_SENT_AFTER_TIMEOUT, TimeoutBreaker } from './backlog.js';
import { DeliveryWindows } from './delivery-window.js';
import { addressChecks, destinationProblem } from './destinations.js';
import { EndpointQueues, Steps } from './endpoint-queue.js';
import { type AttemptMade, attemptRecord, prepareSending, type Sending, unsent } from './attempt-record.js';
import { createMessage, type AttemptRecord, type Destination, type DestinationStatus, type Message, type Trigger } from './message.js';
import { webhookOptionsOf } from './options.js';
import { pipelinesOf } from './pipelines.js';
import { afterFailure, AUTO_DISABLE_AFTER_MS, jittered, MAX_ATTEMPTS } from './retry-policy.js';
import { send, type SendOutcome } from './transport.js';
import { webhooksOf, type WebhookEndpoint } from './webhooks.js';
import { countAttempt } from '../sandbox/report-counters.js';
import { DeliveryActivity } from './delivery-activity.js';
import { DeliveryFaults, faultState } from './delivery-faults.js';
import { dataClass } from '../../engine/world-codec.js';
import { registerQuietCheck } from '../../engine/world-state.js';

export { MAX_RETENTION } from './webhooks.js';

function matchesFilter(filterTypes: string[] | null, eventType: string): boolean {
  return filterTypes === null || filterTypes.includes(eventType);
}

class DeliveryEngine {
  readonly log = new DeliveryLog();
  /** Endpoint id -> destinations still pending (so disable/delete can stop them). */
  private readonly pendingByEndpoint = new Map<string, Set<Destination>>();
  private queues!: EndpointQueues;
  private activity!: DeliveryActivity;
  private windows!: DeliveryWindows;
  private steps!: Steps;
  /** What the faults keep and the endpoints' adapted windows (state; the parts above are wiring). */
  private readonly faultKept = faultState();
  private readonly adaptedWindows = new Map<string, number>();
  private readonly breaker = new TimeoutBreaker();
  /**
   * Svix's +-20% retry jitter. Off by default so attempt times are round; when on, it is drawn
   * from the seed (message, endpoint, attempt), so runs stay reproducible.
   */
  jitter = false;
  private msgSeq = 0;
  private attemptSeq = 0;

  /** Delivery attempts made since the world began (first attempts, retries, resends). */
  get attemptsMade(): number {
    return this.attemptSeq;
  }

  /** Webhook delivery faults (issue 42). */
  private faults!: DeliveryFaults;
  /** The address check of a destination URL (one function per URL in a row, not one per attempt). */
  private addressCheck!: ReturnType<typeof addressChecks>;

  constructor(private readonly world: World) {
    this.wire();
  }

  /** Builds the parts made of callbacks (at construction, and for an engine loaded from a saved world, with nothing in flight). */
  wire(): void {
    const { world } = this;
    this.addressCheck = addressChecks(world);
    this.activity = new DeliveryActivity(world);
    this.faults = new DeliveryFaults(
      world,
      {
        start: (dest) => this.start(dest, 'scheduled'),
        startAt: (dest, at) => this.scheduleRetry(dest, at, this.steps.ownsNow()),
        again: (dest, ep) => void this.resend(dest.message, ep),
      },
      this.faultKept,
    );
    // The barriers' wall time is not replayed (`rawWall`): how long they wait depends on timing, and a
    // read of the replayed wall clock would shift every later read of a saved world's replay.
    const replay = {
      gone: () => worldLogOf(world)?.answersGone() ?? false,
      whenGone: (fn: () => void) => worldLogOf(world)?.whenAnswersGone(fn),
    };
    this.steps = new Steps(world.scheduler, world.clock.rawWall, () => webhookOptionsOf(world).attemptTimeoutMs, replay);
    this.windows = new DeliveryWindows(
      () => webhookOptionsOf(world).window,
      () => webhookOptionsOf(world).pipelines,
      () => webhookOptionsOf(world).attemptTimeoutMs,
      this.adaptedWindows,
    );
    this.queues = new EndpointQueues(
      (endpointId) => this.windows.of(endpointId),
      () => world.scheduler.running,
    );
  }

  /** The event-bus subscriber: one message per event, one destination per matching endpoint. */
  onEvent(entry: JournalEntry, partition: Partition): void {
    const store = webhooksOf(this.world);
    if (!store.has(partition.id)) return;
    if (!pipelinesOf(this.world).svixEnabled(partition.team.id, partition.environment)) return;
    const type = entry.envelope.event_type;
    let targets: WebhookEndpoint[] | null = null;
    for (const ep of store.list(partition.id)) if (!ep.disabled && matchesFilter(ep.filter_types, type)) (targets ??= []).push(ep);
    if (targets === null) return;
    const msg = createMessage({ world: this.world, partition }, ++this.msgSeq, entry);
    this.log.addMessage(msg);
    let refused = false;
    for (const ep of targets) {
      const cap = ep.failing_since === null ? MAX_PENDING_HEALTHY : MAX_PENDING_PER_ENDPOINT;
      if ((this.pendingByEndpoint.get(ep.id)?.size ?? 0) < cap) {
        this.faults.queue(this.destination(msg, ep.id), ep, type);
      } else {
        // A failing endpoint is full (see backlog.ts): the message fails for it at once, unsent.
        this.destination(msg, ep.id, 'failed').failure_reason = BACKLOG_FULL;
        refused = true;
      }
    }
    if (refused) this.log.finished(msg);
    this.log.prune(partition.id);
  }

  /** Stops every pending attempt of an endpoint (disabled or deleted). */
  stopPending(endpointId: string, reason: string): void {
    this.breaker.close(endpointId);
    const pending = this.pendingByEndpoint.get(endpointId);
    if (!pending) return;
    for (const dest of [...pending]) this.finish(dest, 'failed', reason);
    this.pendingByEndpoint.delete(endpointId);
  }

  /** Re-delivers one message to one endpoint now (a manual attempt: not retried if it fails). */
  resend(msg: Message, ep: WebhookEndpoint): Promise<AttemptRecord | null> {
    const dest = msg.destinations.get(ep.id) ?? this.destination(msg, ep.id, 'failed');
    const p = this.queues.enqueue(ep.id, () => this.perform(dest, 'manual'), this.steps.ownsNow());
    this.activity.manual(p);
    return p;
  }

  /** Replays every failed message of an endpoint in the window, in order; waits for the attempts. */
  async recover(ep: WebhookEndpoint, since: number, until: number): Promise<AttemptRecord[]> {
    const out: AttemptRecord[] = [];
    for (const msg of this.log.failedSince(ep.id, since, until)) {
      const attempt = await this.resend(msg, ep);
      if (attempt) out.push(attempt);
    }
    return out;
  }

  /** Disables an endpoint on the sandbox's own initiative and stops its pending attempts. */
  disableEndpoint(ep: WebhookEndpoint, reason: string): void {
    if (ep.disabled) return;
    ep.disabled = true;
    ep.disabled_reason = reason;
    ep.updated_at = this.world.clock.iso();
    this.stopPending(ep.id, 'endpoint_disabled');
    this.operationalEvent('endpoint.disabled', ep, null, reason);
  }

  /** Canonical state for world snapshots. */
  toJSON(): unknown {
    return this.log.toJSON();
  }

  // -------------------------------------------------------------------------------------------

  private destination(msg: Message, endpointId: string, status: DestinationStatus = 'pending'): Destination {
    const dest: Destination = {
      message: msg,
      endpoint_id: endpointId,
      status,
      failure_reason: null,
      scheduled_attempts: 0,
      attempts: [],
      next_attempt_at: status === 'pending' ? this.world.clock.now() : null,
      job: null,
      failing_notified: false,
    };
    this.log.addDestination(dest);
    if (status === 'pending') this.markPending(dest);
    return dest;
  }

  private markPending(dest: Destination): void {
    let set = this.pendingByEndpoint.get(dest.endpoint_id);
    if (!set) this.pendingByEndpoint.set(dest.endpoint_id, (set = new Set()));
    set.add(dest);
  }

  private finish(dest: Destination, status: 'success' | 'failed', reason: string | null): void {
    dest.status = status;
    dest.failure_reason = reason;
    dest.next_attempt_at = null;
    dest.job?.cancel();
    dest.job = null;
    this.pendingByEndpoint.get(dest.endpoint_id)?.delete(dest);
    // A finished message may now be dropped by retention.
    this.log.finished(dest.message);
    this.log.prune(dest.message.partition_id);
  }

  /** Queues a scheduled attempt now; in manual mode the clock waits for it when it is the clock's work. */
  private start(dest: Destination, trigger: Trigger): void {
    const { world } = this;
    const own = this.steps.ownsNow();
    const release =
      world.clock.mode === 'manual' && own
        ? this.steps.hold(world.clock.now(), () => `${dest.message.id} -> ${dest.endpoint_id}`, dest.endpoint_id)
        : null;
    const ticket = this.breaker.ticket();
    this.activity.begin();
    this.queues.schedule(
      dest.endpoint_id,
      () => this.perform(dest, trigger, own, ticket),
      () => {
        release?.();
        this.activity.end();
      },
      own,
    );
  }

  /** `own`: whether the failed attempt was the clock's own (its retry is too; otherwise foreign, see `Scheduler.foreignNow`). */
  private scheduleRetry(dest: Destination, at: number, own: boolean): void {
    const msg = dest.message;
    dest.status = 'pending';
    dest.next_attempt_at = at;
    this.markPending(dest);
    // dest.job stays set until the queued attempt starts, so a manual attempt ahead of it in the
    // endpoint queue knows a scheduled retry is still coming.
    const label = `webhook retry ${msg.id} -> ${dest.endpoint_id} (#${dest.scheduled_attempts + 1})`;
    dest.job = this.world.scheduler.at(at, WEBHOOK_RETRY, dest, label, !own);
  }

  /** Nothing in flight and no barrier's budget in use: the engine's state is all there is (engine/world-state.ts). */
  quietBetweenJobs(): boolean {
    return this.activity.quiet() && this.steps.pristine();
  }

  /** A scheduled retry is due (the WEBHOOK_RETRY job). */
  retryDue(dest: Destination): void {
    this.start(dest, 'scheduled');
  }

  private operationalEvent(type: OperationalType, ep: OperationalEndpoint, msgId: string | null, detail: string): void {
    this.log.addOperationalOf(type, ep, msgId, detail, this.world.clock.iso());
  }

  /** `ticket`: the breaker's ticket of a scheduled attempt (when it was queued); 0 for a manual one. */
  private perform(dest: Destination, trigger: Trigger, own = true, ticket = 0): Promise<AttemptRecord | null> {
    // A rejection of `attempt` (it is async: a throw becomes one) is caught here; one promise, not an async frame around another.
    return this.attempt(dest, trigger, own, ticket).then(undefined, (error: unknown) => {
      this.world.log(`Webhook attempt for ${dest.message.id} -> ${dest.endpoint_id} failed inside the sandbox`, error);
      if (dest.status === 'sending') this.finish(dest, 'failed', 'internal_error');
      return null;
    });
  }

  /** One attempt: checked, signed, sent (or not), recorded, then the message's next step. */
  private async attempt(dest: Destination, trigger: Trigger, own: boolean, ticket: number): Promise<AttemptRecord | null> {
    const ep = this.deliverable(dest, trigger);
    if (ep === null) return null;
    const { world } = this;
    const before = dest.status;
    dest.status = 'sending';
    const sending = prepareSending(world, dest, ep, webhooksOf(world).signingKeys(ep), this.faults.skew(dest));
    const sent = this.transmit(ep, dest, sending, trigger, ticket);
    const outcome = await sent;
    if (sent !== outcome) this.sent(ep, sending, outcome);
    const made: AttemptMade = { dest, ep, trigger, sending, outcome };
    const record = attemptRecord(world, made, ++this.attemptSeq);
    this.log.addAttempt(dest, record);
    if (outcome.response !== null) this.windows.answered(ep.id, record.latency_ms);
    if (record.status === 'success') {
      if (webhooksOf(world).endpoint(ep.id) === ep) ep.failing_since = null;
      if (dest.failing_notified)
        this.operationalEvent('message.attempt.recovered', ep, dest.message.id, `Delivered on attempt ${record.attempt_number}`);
      this.finish(dest, 'success', null);
    } else this.failed(made, record, before, own);
    countAttempt(world, ep, dest.message.event_type, record, (dest.status as DestinationStatus) === 'failed');
    return record;
  }

  /** The endpoint a due attempt goes to, or null when there is none to send (the destination finished if it must). */
  private deliverable(dest: Destination, trigger: Trigger): WebhookEndpoint | null {
    if (trigger === 'scheduled') {
      if (dest.status !== 'pending') return null;
      dest.job = null;
    }
    const ep = webhooksOf(this.world).endpoint(dest.endpoint_id);
    if (!ep) {
      this.finish(dest, 'failed', 'endpoint_deleted');
      return null;
    }
    if (!this.world.tenancy.teams.has(dest.message.team_id)) {
      this.finish(dest, 'failed', 'team_deleted');
      return null;
    }
    if (ep.disabled) {
      if (trigger === 'scheduled') this.finish(dest, 'failed', 'endpoint_disabled');
      return null;
    }
    return ep;
  }

  /**
   * Sends the attempt, unless its destination is refused now (the sandbox's own address may have
   * changed) or the timeout breaker stops it (backlog.ts: failed like a timeout, not sent). Not
   * async: the attempt awaits the send's own promise; `sent` then reads the outcome.
   */
  private transmit(
    ep: WebhookEndpoint,
    dest: Destination,
    sending: Sending,
    trigger: Trigger,
    ticket: number,
  ): SendOutcome | Promise<SendOutcome> {
    const { world } = this;
    const url = ep.url;
    const refused = destinationProblem(world, url);
    if (refused) return unsent(`refused: ${refused}`, false);
    if (trigger === 'scheduled' && this.breaker.stops(ep.id, ticket, world.clock.now())) return unsent(NOT_SENT_AFTER_TIMEOUT, true);
    const options = webhookOptionsOf(world);
    const request = {
      url,
      method: 'POST' as const,
      headers: sending.headers,
      body: dest.message.body,
      endpoint: ep.id,
      checkAddress: this.addressCheck(url),
    };
    return send(options.transport, request, options.attemptTimeoutMs, world.clock.rawWall);
  }

  /** A sent attempt's outcome opens or closes the timeout breaker and tells the endpoint's window. */
  private sent(ep: WebhookEndpoint, sending: Sending, outcome: SendOutcome): void {
    const { clock } = this.world;
    // Counted from the attempt's start in manual mode (its outcome may come after the clock moved on).
    if (outcome.timedOut) this.breaker.timedOut(ep.id, clock.mode === 'manual' ? sending.startedAt : clock.now());
    else if (outcome.response !== null) this.breaker.close(ep.id);
    if (outcome.response === null) this.windows.troubled(ep.id);
  }

  /** A failed attempt: the endpoint's failing state, then a retry or the message's end for it. */
  private failed(
    { dest, ep, trigger, sending, outcome }: AttemptMade,
    record: AttemptRecord,
    before: DestinationStatus,
    own: boolean,
  ): void {
    const { clock } = this.world;
    const msg = dest.message;
    const now = clock.now();
    const live = webhooksOf(this.world).endpoint(ep.id) === ep;
    const response = record.response;
    if (live && ep.failing_since === null) ep.failing_since = now;
    const directive = response?.headers['webhook-delivery']?.trim().toLowerCase();
    if (live && directive === 'disable') this.disableEndpoint(ep, 'The receiver answered webhook-delivery: disable');
    if (live && !ep.disabled && ep.failing_since !== null && now - ep.failing_since >= AUTO_DISABLE_AFTER_MS) {
      this.disableEndpoint(ep, 'Every delivery failed for 5 days');
    }

    if (trigger === 'manual') {
      // A failed manual attempt is not retried; a scheduled retry already pending stays.
      if (dest.job !== null) dest.status = 'pending';
      else this.finish(dest, 'failed', before === 'failed' ? (dest.failure_reason ?? 'manual_attempt_failed') : 'manual_attempt_failed');
      return;
    }

    dest.scheduled_attempts++;
    if (dest.scheduled_attempts === 4 && !dest.failing_notified) {
      dest.failing_notified = true;
      this.operationalEvent('message.attempt.failing', ep, msg.id, 'Four attempts in a row failed');
    }
    if (!live || ep.disabled) {
      this.finish(dest, 'failed', live ? 'endpoint_disabled' : 'endpoint_deleted');
      return;
    }
    const next = afterFailure({
      failures: dest.scheduled_attempts,
      status: response?.status_code ?? null,
      timedOut: outcome.timedOut,
      retryAfter: response?.headers['retry-after'],
      directive,
      wallNow: sending.wall(),
    });
    if (next.kind === 'done') {
      this.finish(dest, 'failed', next.reason);
      if (next.reason === 'exhausted')
        this.operationalEvent('message.attempt.exhausted', ep, msg.id, `All ${MAX_ATTEMPTS} attempts failed`);
      return;
    }
    const delay = this.jitter
      ? jittered(next.delayMs, unitFloat(this.world.seed, 'webhook-jitter', msg.id, ep.id, dest.scheduled_attempts))
      : next.delayMs;
    // On the simulated schedule (manual mode): counted from the attempt's start; when the clock has
    // already passed that time (the outcome came after the advance moved on), due at once.
    const at = (clock.mode === 'manual' ? sending.startedAt : now) + delay;
    record.next_attempt_at = new Date(at).toISOString();
    this.scheduleRetry(dest, Math.max(at, now), own);
  }
}

/** A destination's scheduled attempt is due. */
const WEBHOOK_RETRY = jobKind<Destination>('webhooks.retry', (world, dest) => deliveryOf(world).retryDue(dest));

dataClass('DeliveryEngine', DeliveryEngine, {
  skip: ['queues', 'windows', 'steps', 'faults', 'activity', 'addressCheck'],
  revive: (engine) => engine.wire(),
});
export const deliveryOf = worldSlot('webhook-delivery', (world) => new DeliveryEngine(world));
registerQuietCheck((world) => deliveryOf.peek(world)?.quietBetweenJobs() ?? true);
