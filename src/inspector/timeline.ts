/**
 * A user's timeline: connections, historical pulls, events, webhook deliveries and lab order
 * statuses in time order. Runs of pulls (a pull per resource, and the `historical.data.*` events
 * they send) collapse into one row that says how many and which; nothing else is merged.
 */
import type { EventEntry, HistoricalPull, Order, Provider, WebhookMessage } from './types.js';

export type TimelineKind = 'connection' | 'pull' | 'event' | 'delivery' | 'order';

export interface TimelineItem {
  at: string;
  kind: TimelineKind;
  text: string;
  /** A status shown beside the text (`success`, `failure`, `connected`, `completed`...). */
  status?: string;
  /** A link inside the inspector (`#webhooks/msg_...`, `#orders/<id>`). */
  href?: string;
}

export interface TimelineRow extends TimelineItem {
  /** For a collapsed run of pulls: how many, and the last time. */
  count?: number;
  until?: string;
}

export interface TimelineInput {
  providers?: Provider[] | null;
  pulls?: HistoricalPull | null;
  events?: EventEntry[] | null;
  messages?: WebhookMessage[] | null;
  orders?: Order[] | null;
}

const KIND_ORDER: Record<TimelineKind, number> = { connection: 0, pull: 1, event: 2, delivery: 3, order: 4 };

function items(input: TimelineInput): TimelineItem[] {
  const out: TimelineItem[] = [];
  for (const p of input.providers ?? []) {
    if (p.created_on) out.push({ at: p.created_on, kind: 'connection', text: `${p.slug} connected`, status: p.status ?? undefined });
  }
  for (const [provider, one] of Object.entries(input.pulls?.provider ?? {})) {
    for (const [resource, x] of Object.entries(one?.pulled ?? {})) {
      const at = x.timeline?.ended_at ?? x.timeline?.started_at ?? x.timeline?.scheduled_at ?? x.range_end;
      if (at) out.push({ at, kind: 'pull', text: `${provider} ${resource}`, status: x.status ?? undefined });
    }
  }
  for (const e of input.events ?? []) {
    const type = e.envelope?.event_type ?? '(no type)';
    out.push({ at: e.occurred_at, kind: type.startsWith('historical.data.') ? 'pull' : 'event', text: type });
  }
  for (const m of input.messages ?? []) {
    const to = (m.destinations ?? []).map((d) => `${d.endpoint_id ?? '?'}: ${d.status ?? '?'}`).join('; ');
    out.push({ at: m.created_at, kind: 'delivery', text: `${m.event_type}${to ? ` to ${to}` : ''}`, href: `#webhooks/${m.id}` });
  }
  for (const o of input.orders ?? []) {
    const name = o.lab_test?.name ?? 'lab order';
    const events = o.events ?? [];
    if (events.length === 0 && o.created_at)
      out.push({ at: o.created_at, kind: 'order', text: `${name}: placed`, status: o.status ?? undefined, href: `#orders/${o.id}` });
    for (const e of events)
      out.push({ at: e.created_at, kind: 'order', text: `${name}: ${e.status}`, status: e.status, href: `#orders/${o.id}` });
  }
  return out;
}

const instant = (iso: string) => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
};

/** The items in time order (ties: connection, pull, event, delivery, order; then as given). */
export function orderTimeline(list: TimelineItem[]): TimelineItem[] {
  return list
    .map((item, i) => ({ item, i, t: instant(item.at) }))
    .sort((a, b) => a.t - b.t || KIND_ORDER[a.item.kind] - KIND_ORDER[b.item.kind] || a.i - b.i)
    .map(({ item }) => item);
}

/** Consecutive pulls become one row: `12 pulls: apple_health_kit activity, steps, ...`. */
export function collapsePulls(ordered: TimelineItem[]): TimelineRow[] {
  const rows: TimelineRow[] = [];
  let run: TimelineItem[] = [];
  const flush = () => {
    if (run.length === 1) rows.push(run[0]!);
    else if (run.length > 1) {
      const names = [...new Set(run.map((x) => x.text))];
      const failed = run.filter((x) => x.status === 'failure' || x.status === 'error').length;
      rows.push({
        at: run[0]!.at,
        until: run[run.length - 1]!.at,
        kind: 'pull',
        count: run.length,
        text: `${run.length} pulls: ${names.slice(0, 6).join(', ')}${names.length > 6 ? `, and ${names.length - 6} more` : ''}`,
        status: failed ? `${failed} failed` : undefined,
      });
    }
    run = [];
  };
  for (const item of ordered) {
    if (item.kind === 'pull') run.push(item);
    else {
      flush();
      rows.push(item);
    }
  }
  flush();
  return rows;
}

/** The whole timeline of a user, oldest first. */
export function userTimeline(input: TimelineInput): TimelineRow[] {
  return collapsePulls(orderTimeline(items(input)));
}
