/**
 * Webhooks of the selected team environment: endpoints (Recover failed), messages newest first
 * (pages of 50), the sandbox's own test receivers, pipeline streams; one message with every
 * attempt and Resend.
 */
import { control, session, teamOf } from './api.js';
import { button, code, h, link, pager, pre, row, section, status, table } from './dom.js';
import { indented, qs, time } from './format.js';
import { pageOf } from './paging.js';
import { pageNumber, ui } from './state.js';
import type { Attempt, Endpoint, Receiver, WebhookMessage } from './types.js';
import type { View } from './view.js';

const orEmpty = <T>(p: Promise<T>, fallback: T): Promise<T> => p.catch(() => fallback);

/** Messages of a team environment, oldest first, read in pages of 1000 (the route's most) up to `most`. */
export async function allMessages(scope: { team_id?: string; environment: string }, most = 5000): Promise<WebhookMessage[]> {
  const out: WebhookMessage[] = [];
  let after: number | null | undefined;
  do {
    const page = await control<{ messages?: WebhookMessage[] | null; next_after?: number | null }>(
      'GET',
      `/_sandbox/webhooks/messages${qs({ limit: 1000, after: after ?? undefined, ...scope })}`,
    );
    out.push(...(page.messages ?? []));
    after = page.next_after;
  } while (after !== null && after !== undefined && out.length < most);
  return out;
}

export const webhooksView: View = async (parts) => {
  if (parts[0]) return messageView(parts);
  const t = teamOf();
  const scope = { team_id: t?.team_id, environment: session.env };
  const [endpoints, messages, streams] = await Promise.all([
    control<{ endpoints?: Endpoint[] | null }>('GET', `/_sandbox/webhooks/endpoints${qs(scope)}`),
    allMessages(scope),
    orEmpty(control<{ streams?: Array<{ name: string; count?: number; records?: number }> | null }>('GET', '/_sandbox/pipelines/streams'), {
      streams: [],
    }),
  ]);
  const eps = endpoints.endpoints ?? [];
  // Endpoints pointing at the sandbox's own test receivers: what each received.
  const names = [...new Set(eps.map((e) => /\/_sandbox\/receiver\/([^/?#]+)/.exec(e.url)?.[1]).filter((n): n is string => !!n))];
  const receivers = (await Promise.all(names.map((n) => orEmpty(control<Receiver | null>('GET', `/_sandbox/receiver/${n}`), null)))).filter(
    (r): r is Receiver => r !== null,
  );
  const p = pageOf([...messages].reverse(), pageNumber('messages'));
  return section(
    `Webhooks of ${t?.name ?? 'no team'} / ${session.env}`,
    table(
      ['Endpoint', 'URL', 'Filter', 'Disabled', ''],
      eps.map((e) =>
        row([
          code(e.id),
          code(e.url),
          (e.filter_types ?? ['everything']).join(', '),
          e.disabled ? 'yes' : 'no',
          button('Recover failed', () => control('POST', `/_sandbox/webhooks/endpoints/${e.id}/recover`, { since: e.created_at }), {
            'aria-label': `Recover failed messages of ${e.id}`,
          }),
        ]),
      ),
      'Endpoints',
    ),
    pager('messages', p, (n) => {
      ui.pages['messages'] = n;
    }),
    table(
      ['Message', 'Created', 'Event type', 'User', 'Destinations'],
      p.items.map((m) =>
        row([
          link(`#webhooks/${m.id}`, m.id),
          time(m.created_at),
          code(m.event_type),
          m.user_id ? link(`#user/${m.user_id}`, m.user_id.slice(0, 8)) : '-',
          (m.destinations ?? []).map((d) => `${d.endpoint_id ?? ''}: ${d.status ?? ''}`).join('; '),
        ]),
      ),
      'Messages (newest first)',
    ),
    table(
      ['Receiver', 'Deliveries', 'Last', 'Signature', 'Answered'],
      receivers.map((x) => {
        const last = x.deliveries?.[x.deliveries.length - 1];
        return row([
          code(x.name),
          String(x.count ?? 0),
          last ? `${time(last.received_at)} ${last.event_type ?? ''}` : '-',
          last ? (last.verified === null || last.verified === undefined ? 'not checked' : last.verified ? 'verified' : 'INVALID') : '-',
          last ? String(last.answered_status ?? '-') : '-',
        ]);
      }),
      'Test receivers (/_sandbox/receiver/:name)',
    ),
    table(
      ['Stream', 'Records'],
      (streams.streams ?? []).map((s) => row([s.name, String(s.count ?? s.records ?? 0)])),
      'Pipeline streams',
    ),
  );
};

async function messageView(parts: string[]): Promise<Node> {
  const m = await control<WebhookMessage & { attempts?: Attempt[] | null }>('GET', `/_sandbox/webhooks/messages/${parts[0] ?? ''}`);
  const endpoints = (m.destinations ?? []).map((d) => d.endpoint_id).filter((e): e is string => !!e);
  return section(
    `Message ${m.id}`,
    link('#webhooks', 'Back to webhooks'),
    h(
      'p',
      null,
      code(m.event_type),
      ` at ${time(m.created_at)} `,
      endpoints.map((ep) => button(`Resend to ${ep}`, () => control('POST', `/_sandbox/webhooks/messages/${m.id}/endpoints/${ep}/resend`))),
    ),
    table(
      ['#', 'Trigger', 'Status', 'Sent', 'Latency', 'Next retry', 'Request and answer'],
      (m.attempts ?? []).map((a) =>
        row([
          String(a.attempt_number),
          a.trigger,
          status(a.status, a.status === 'success' ? 's2' : 's5'),
          time(a.created_at),
          a.latency_ms === null || a.latency_ms === undefined ? '-' : `${Math.round(a.latency_ms)} ms`,
          time(a.next_attempt_at) || '-',
          h(
            'details',
            null,
            h('summary', { text: a.response ? `answer ${a.response.status ?? ''}` : (a.error ?? 'details') }),
            pre(indented({ request: a.request, response: a.response, error: a.error }), 'Attempt'),
          ),
        ]),
      ),
      'Attempts',
    ),
    h('h3', { text: 'Payload' }),
    pre(indented(m.payload ?? null), 'Payload'),
  );
}
