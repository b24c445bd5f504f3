/** The event journal of the selected team environment (filters, newest first, pages of 50) and the next scheduled jobs. */
import { control, session, teamOf } from './api.js';
import { code, h, link, pager, pre, row, section, table } from './dom.js';
import { filterForm } from './forms.js';
import { indented, qs, time } from './format.js';
import { pageOf } from './paging.js';
import { filtersOf, pageNumber, ui } from './state.js';
import type { EventEntry } from './types.js';
import type { View } from './view.js';

/** A sandbox notice (`notices` of `GET /_sandbox/events`): what the sandbox did that no event announces. */
interface Notice {
  at: string;
  kind: string;
  user_id: string;
  text: string;
}

export const eventsView: View = async () => {
  const f = filtersOf('events');
  const t = teamOf();
  const [page, jobs] = await Promise.all([
    control<{ events?: EventEntry[] | null; total?: number | null; notices?: Notice[] | null }>(
      'GET',
      `/_sandbox/events${qs({ team_id: t?.team_id, environment: session.env, event_type_prefix: f['prefix'], user_id: f['user_id'], limit: 10000 })}`,
    ),
    control<{ jobs?: Array<{ at: string; label: string }> | null; pending?: number | null }>('GET', '/_sandbox/jobs?limit=20'),
  ]);
  const p = pageOf([...(page.events ?? [])].reverse(), pageNumber('events'));
  return section(
    'Events',
    h('p', {
      class: 'note',
      text: `The event journal of ${t?.name ?? 'no team'} / ${session.env}, newest first (${page.total ?? p.total} in all).`,
    }),
    filterForm('events', [
      ['prefix', 'Type prefix', 'labtest.', 14],
      ['user_id', 'User id', '', 14],
    ]),
    pager('events', p, (n) => {
      ui.pages['events'] = n;
    }),
    table(
      ['#', 'Sandbox time', 'Type', 'User', 'Data'],
      p.items.map((e) => {
        const d = e.envelope?.data ?? {};
        const label = typeof d['status'] === 'string' ? d['status'] : typeof d['id'] === 'string' ? d['id'] : 'data';
        return row([
          String(e.seq),
          time(e.occurred_at),
          code(e.envelope?.event_type ?? '-'),
          e.envelope?.user_id ? link(`#user/${e.envelope.user_id}`, e.envelope.user_id.slice(0, 8)) : '',
          h('details', null, h('summary', { text: label }), pre(indented(d), 'Event data')),
        ]);
      }),
      'Event journal',
    ),
    (page.notices ?? []).length > 0
      ? table(
          ['Sandbox time', 'Notice', 'User', 'What'],
          [...(page.notices ?? [])]
            .reverse()
            .map((n) => row([time(n.at), code(n.kind), link(`#user/${n.user_id}`, n.user_id.slice(0, 8)), n.text])),
          'Sandbox notices: what the sandbox did on its own that no event announces (a demo user expired)',
        )
      : null,
    table(
      ['Due (sandbox time)', 'Job'],
      (jobs.jobs ?? []).map((j) => row([time(j.at), j.label])),
      `Next scheduled jobs (${jobs.pending ?? 0} pending): what advancing the clock will run`,
    ),
  );
};
