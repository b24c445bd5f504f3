/**
 * Users of the selected team environment (pages of 50), and one user's page: connections, the
 * historical pulls summed up per provider (each resource behind a disclosure), the newest ECG
 * of the last 30 days drawn as SVG, the last week's summaries and the user's timeline.
 */
import { control, session, teamApi, teamOf } from './api.js';
import { code, facts, h, link, pager, pre, row, section, status, svg, table } from './dom.js';
import { day, indented, qs, short, time, timeRange } from './format.js';
import { PAGE_SIZE } from './paging.js';
import { pageNumber, ui } from './state.js';
import { userTimeline } from './timeline.js';
import type { EcgSummary, EventEntry, HistoricalPull, Order, Provider, User } from './types.js';
import { allMessages } from './views-webhooks.js';
import type { View } from './view.js';

const scopeName = () => `${teamOf()?.name ?? 'no team'} / ${session.env}`;

export const usersView: View = async () => {
  const at = pageNumber('users');
  const page = await teamApi<{ users?: User[] | null; total?: number | null }>(
    'GET',
    `/v2/user${qs({ offset: at * PAGE_SIZE, limit: PAGE_SIZE })}`,
  );
  const users = page.users ?? [];
  const total = page.total ?? users.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return section(
    `Users of ${scopeName()}`,
    pager('users', { page: at, pages, total, first: users.length ? at * PAGE_SIZE + 1 : 0, last: at * PAGE_SIZE + users.length }, (n) => {
      ui.pages['users'] = Math.max(0, Math.min(n, pages - 1));
    }),
    table(
      ['User', 'Client user id', 'Created', 'Connected sources'],
      users.map((u) =>
        row([
          link(`#user/${u.user_id}`, short(u.user_id)),
          code(u.client_user_id),
          time(u.created_on),
          (u.connected_sources ?? [])
            .map((c) => c.provider?.slug ?? '?')
            .filter(Boolean)
            .join(', ') || '-',
        ]),
      ),
      'Users',
    ),
  );
};

function ecgFigure(summary: EcgSummary, samples: Array<{ value: number }>): HTMLElement {
  const hz = summary.sampling_frequency_hz || 512;
  const W = 900;
  const H = 180;
  const n = Math.min(samples.length, 5 * hz);
  const step = Math.max(1, Math.floor(n / 1800));
  const points: string[] = [];
  for (let i = 0; i < n; i += step) {
    const v = samples[i]?.value ?? 0;
    points.push(`${((i / n) * W).toFixed(1)},${(H - ((v + 0.6) / 2) * H).toFixed(1)}`);
  }
  const label = `ECG lead I, first ${(n / hz).toFixed(0)} s of the session of ${time(summary.session_start)}: ${
    summary.classification ?? 'unclassified'
  }, mean heart rate ${summary.heart_rate_mean ?? '?'} bpm`;
  const title = svg('title', { id: 'ecg-title' });
  title.textContent = 'Electrocardiogram';
  const desc = svg('desc', { id: 'ecg-desc' });
  desc.textContent = label;
  return h(
    'figure',
    null,
    svg(
      'svg',
      { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-labelledby': 'ecg-title ecg-desc', class: 'ecg', width: '100%' },
      title,
      desc,
      svg('polyline', { points: points.join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': '1.2' }),
    ),
    h(
      'figcaption',
      null,
      `Session of ${time(summary.session_start)}: `,
      h('strong', { text: summary.classification ?? 'unclassified' }),
      ', mean heart rate ',
      h('strong', { text: `${summary.heart_rate_mean ?? '?'} bpm` }),
      ` (${summary.source_provider ?? '?'}, ${summary.voltage_sample_count ?? samples.length} samples at ${hz} Hz)`,
    ),
  );
}

const pullClass = (s: string | null | undefined) => (s === 'success' ? 's2' : s === 'failure' ? 's5' : 's4');

/** One row per provider (resources per status), each resource behind a disclosure. */
function pullsTable(pulls: HistoricalPull | undefined): HTMLElement {
  const rows = Object.entries(pulls?.provider ?? {}).map(([provider, one]) => {
    const resources = Object.entries(one?.pulled ?? {});
    const counts = new Map<string, number>();
    for (const [, x] of resources) counts.set(x.status ?? 'unknown', (counts.get(x.status ?? 'unknown') ?? 0) + 1);
    return row([
      provider,
      [...counts].map(([s, n]) => [status(`${n} ${s}`, pullClass(s)), ' ']),
      h(
        'details',
        null,
        h('summary', { text: `${resources.length} resources` }),
        table(
          ['Resource', 'Status', 'Range', 'Error'],
          resources.map(([name, x]) =>
            row([
              name,
              status(x.status ?? '-', pullClass(x.status)),
              timeRange(x.range_start, x.range_end),
              x.error_details ? JSON.stringify(x.error_details) : '-',
            ]),
          ),
        ),
      ),
    ]);
  });
  return table(['Provider', 'Pulls', 'Resources'], rows, 'Historical pulls');
}

const settle = <T>(p: Promise<T>, fallback: T): Promise<T> => p.catch(() => fallback);

export const userView: View = async (parts, clock) => {
  const id = parts[0] ?? '';
  const team = teamOf();
  const to = day(clock.now);
  const [user, providers, pulls, ecgs, sleep, activity, events, messages, orders] = await Promise.all([
    teamApi<User>('GET', `/v2/user/${id}`),
    settle(teamApi<{ providers?: Provider[] | null }>('GET', `/v2/user/providers/${id}`), { providers: [] }),
    settle(teamApi<{ data?: HistoricalPull[] | null }>('GET', `/v2/introspect/historical_pull${qs({ user_id: id })}`), { data: [] }),
    settle(
      teamApi<{ electrocardiogram?: EcgSummary[] | null }>(
        'GET',
        `/v2/summary/electrocardiogram/${id}${qs({ start_date: day(clock.now, -30), end_date: to })}`,
      ),
      { electrocardiogram: [] },
    ),
    settle(
      teamApi<{ sleep?: Array<Record<string, unknown>> | null }>(
        'GET',
        `/v2/summary/sleep/${id}${qs({ start_date: day(clock.now, -7), end_date: to })}`,
      ),
      {
        sleep: [],
      },
    ),
    settle(
      teamApi<{ activity?: Array<Record<string, unknown>> | null }>(
        'GET',
        `/v2/summary/activity/${id}${qs({ start_date: day(clock.now, -7), end_date: to })}`,
      ),
      { activity: [] },
    ),
    settle(
      control<{ events?: EventEntry[] | null }>(
        'GET',
        `/_sandbox/events${qs({ team_id: team?.team_id, environment: session.env, user_id: id, limit: 10000 })}`,
      ),
      { events: [] },
    ),
    settle(allMessages({ team_id: team?.team_id, environment: session.env }), []),
    settle(teamApi<{ orders?: Order[] | null }>('GET', `/v3/orders${qs({ user_id: id, size: 100 })}`), { orders: [] }),
  ]);
  const list = ecgs.electrocardiogram ?? [];
  const last = list[list.length - 1];
  const figure = last
    ? ecgFigure(
        last,
        await settle(
          teamApi<Array<{ value: number }>>(
            'GET',
            `/v2/timeseries/${id}/electrocardiogram_voltage${qs({ start_date: last.session_start, end_date: last.session_end })}`,
          ),
          [],
        ),
      )
    : h('p', { text: 'No ECG session in the last 30 days.' });
  const timeline = userTimeline({
    providers: providers.providers,
    pulls: pulls.data?.[0],
    events: events.events,
    messages: messages.filter((m) => m.user_id === id),
    orders: (orders.orders ?? []).filter((o) => o.user_id === id),
  });
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
  return section(
    `User ${user.client_user_id}`,
    link('#users', 'Back to users'),
    facts([
      ['User id', code(user.user_id)],
      ['Created', time(user.created_on)],
    ]),
    table(
      ['Provider', 'Status', 'Connected', 'Error'],
      (providers.providers ?? []).map((c) =>
        row([
          c.slug,
          status(c.status ?? '-', c.status === 'connected' ? 's2' : 's5'),
          time(c.created_on),
          c.error_details ? JSON.stringify(c.error_details) : '-',
        ]),
      ),
      'Connections',
    ),
    pullsTable(pulls.data?.[0]),
    h('h3', { text: 'Electrocardiogram' }),
    figure,
    table(
      ['Day', 'Kind', 'Values'],
      [
        ...(sleep.sleep ?? []).map((s) =>
          row([
            String(s['calendar_date'] ?? s['date'] ?? s['bedtime_start'] ?? '').slice(0, 10),
            'sleep',
            `${Math.round((num(s['total']) ?? num(s['duration']) ?? 0) / 360) / 10} h asleep, score ${num(s['score']) ?? '-'}`,
          ]),
        ),
        ...(activity.activity ?? []).map((a) =>
          row([
            String(a['calendar_date'] ?? a['date'] ?? '').slice(0, 10),
            'activity',
            `${num(a['steps']) ?? '-'} steps, ${Math.round(num(a['calories_total']) ?? 0)} kcal`,
          ]),
        ),
      ],
      'Recent summaries (7 days)',
    ),
    h('h3', { text: 'Timeline' }),
    h(
      'ol',
      { class: 'timeline', 'aria-label': 'Timeline of the user' },
      timeline.length
        ? timeline.map((t) =>
            h(
              'li',
              { 'data-kind': t.kind },
              h('time', { datetime: t.at, text: time(t.at) }),
              t.until && t.until !== t.at ? ` to ${time(t.until)}` : '',
              ' ',
              h('span', { class: 'kind', text: t.kind }),
              ' ',
              t.href ? link(t.href, t.text) : t.text,
              t.status
                ? [' ', status(t.status, pullClass(t.status === 'connected' || t.status === 'completed' ? 'success' : t.status))]
                : null,
            ),
          )
        : h('li', { text: 'Nothing yet.' }),
    ),
    h('details', null, h('summary', { text: 'The user as JSON' }), pre(indented(user), 'User')),
  );
};
