/**
 * What the delivery log keeps of an attempt once it is final (issue 27 item 5): a later attempt of
 * its destination superseded it, or its destination finished. An `AttemptRecord` as the delivery
 * engine builds it holds 19 fields, a request and a response wrapper, the next attempt's time as a
 * string and copies of what its message already holds (ids, team, event type), about 1 KB with its
 * strings; the kept form is one object of numbers and shared strings, and `full()` gives back the
 * same record, field for field (docs/simulated/webhooks.md "Caps").
 */
import type { AttemptRecord, Destination, Trigger } from './message.js';

export class KeptAttempt {
  readonly seq: number;
  readonly id: string;
  readonly url: string;
  readonly trigger: Trigger;
  readonly n: number;
  readonly ok: boolean;
  readonly createdAt: string;
  readonly timestamp: number;
  readonly requestHeaders: Record<string, string>;
  /** -1: no HTTP answer. */
  readonly statusCode: number;
  readonly responseHeaders: Record<string, string> | null;
  readonly responseBody: string | null;
  readonly error: string | null;
  readonly latency: number;
  /** Epoch ms, NaN when none was scheduled. */
  readonly nextAt: number;

  constructor(
    readonly dest: Destination,
    a: AttemptRecord,
  ) {
    this.seq = a.seq;
    this.id = a.id;
    this.url = a.url;
    this.trigger = a.trigger;
    this.n = a.attempt_number;
    this.ok = a.status === 'success';
    this.createdAt = a.created_at;
    this.timestamp = a.timestamp;
    this.requestHeaders = a.request.headers;
    this.statusCode = a.response === null ? -1 : a.response.status_code;
    this.responseHeaders = a.response === null ? null : a.response.headers;
    this.responseBody = a.response === null ? null : a.response.body;
    this.error = a.error;
    this.latency = a.latency_ms;
    this.nextAt = a.next_attempt_at === null ? Number.NaN : Date.parse(a.next_attempt_at);
  }

  /** Whether the record can be kept in this form and give back the same fields (else it stays as it is). */
  static fits(dest: Destination, a: AttemptRecord): boolean {
    const msg = dest.message;
    return (
      a.msg_id === msg.id &&
      a.endpoint_id === dest.endpoint_id &&
      a.team_id === msg.team_id &&
      a.environment === msg.environment &&
      a.event_type === msg.event_type &&
      a.request.method === 'POST' &&
      a.request.body === msg.body &&
      (a.next_attempt_at === null || new Date(Date.parse(a.next_attempt_at)).toISOString() === a.next_attempt_at)
    );
  }

  /** The record as the delivery engine made it (a new object each time). */
  full(): AttemptRecord {
    const msg = this.dest.message;
    return {
      id: this.id,
      seq: this.seq,
      msg_id: msg.id,
      endpoint_id: this.dest.endpoint_id,
      team_id: msg.team_id,
      environment: msg.environment,
      event_type: msg.event_type,
      url: this.url,
      trigger: this.trigger,
      attempt_number: this.n,
      status: this.ok ? 'success' : 'failed',
      created_at: this.createdAt,
      timestamp: this.timestamp,
      request: { method: 'POST', headers: this.requestHeaders, body: msg.body },
      response:
        this.statusCode < 0 ? null : { status_code: this.statusCode, headers: this.responseHeaders ?? {}, body: this.responseBody ?? '' },
      error: this.error,
      latency_ms: this.latency,
      next_attempt_at: Number.isNaN(this.nextAt) ? null : new Date(this.nextAt).toISOString(),
    };
  }
}

/** An attempt as the log holds it. */
export type LoggedAttempt = AttemptRecord | KeptAttempt;

/** The record of a logged attempt. */
export function attemptOf(a: LoggedAttempt): AttemptRecord {
  return a instanceof KeptAttempt ? a.full() : a;
}
