/**
 * The request journal: API requests only (a switch, on by default), filters, a search across the
 * kept bodies, pages of 50; an entry's detail (headers, bodies, a 422's fields, near misses) with
 * Copy as curl and Replay.
 */
import { control, session } from './api.js';
import { curlOf, pathWithQuery, replayOf } from './curl.js';
import { button, code, copyButton, facts, h, hooks, link, pager, pre, row, section, status, table } from './dom.js';
import { filterForm } from './forms.js';
import { pretty, qs, short, statusClass, time } from './format.js';
import { foundIn, isApiRequest, pageOf, searchBodies } from './paging.js';
import { filtersOf, pageNumber, ui } from './state.js';
import type { JournalRequest, RequestPage } from './types.js';
import type { View } from './view.js';

function apiSwitch(): HTMLElement {
  const box = h('input', {
    type: 'checkbox',
    id: 'api-only',
    checked: ui.apiOnly,
    onchange: () => {
      ui.apiOnly = box.checked;
      ui.pages['requests'] = 0;
      hooks.refresh();
    },
  });
  return h('label', { for: 'api-only' }, box, ' API requests only');
}

export const requestsView: View = async (parts) => {
  if (parts[0]) return requestView(parts);
  const f = filtersOf('requests');
  const page = await control<RequestPage>(
    'GET',
    `/_sandbox/requests${qs({ status: f['status'], route: f['route'], path: f['path'], team_id: f['team_id'], limit: 10000 })}`,
  );
  const shown = searchBodies(ui.apiOnly ? page.requests.filter(isApiRequest) : page.requests, f['search'] ?? '');
  const p = pageOf(shown, pageNumber('requests'));
  const go = (n: number) => {
    ui.pages['requests'] = n;
  };
  return section(
    'Requests',
    h(
      'p',
      { class: 'note' },
      `The journal keeps the ${page.size} most recent requests (${page.recorded} since start), newest first. Bodies are kept for errors${
        page.bodies ? ' and every request' : ''
      }; keys are masked.`,
    ),
    filterForm(
      'requests',
      [
        ['status', 'Status', '404 or 4xx', 6],
        ['route', 'Route', 'users.* or none', 14],
        ['path', 'Path', '/v2/user', 14],
        ['team_id', 'Team id', '', 10],
        ['search', 'Search bodies', 'text in a kept body', 16],
      ],
      apiSwitch(),
    ),
    pager('requests', p, go),
    table(
      ['Id', 'Sandbox time', 'Method', 'Path', 'Status', 'ms', 'Route', 'Team'],
      p.items.map((r) => {
        const where = foundIn(r, f['search'] ?? '');
        return row(
          [
            link(`#requests/${r.id}`, r.id),
            h('time', { datetime: r.sandbox_time, text: time(r.sandbox_time) }),
            r.method,
            [code(pathWithQuery(r)), where.length ? h('small', { class: 'found', text: ` found in ${where.join(', ')}` }) : null],
            r.dropped || r.status === null ? status('dropped', 's5') : status(String(r.status), statusClass(r.status)),
            String(r.duration_ms),
            r.route_id ? code(r.route_id) : h('em', { text: r.near_misses?.length ? 'no route (near misses)' : 'no route' }),
            `${short(r.team_id)}${r.environment ? ` ${r.environment}` : ''}`,
          ],
          { class: r.dropped || r.status === null || r.status >= 400 ? 'error-row' : null },
        );
      }),
      'Request journal',
    ),
  );
};

/** What a fault did to the request, readable after its rule retired. */
function faultText(r: JournalRequest): string {
  if (!r.fault) return r.fault_id ?? '-';
  const waited = r.fault.latency_ms !== null ? `, waited ${r.fault.latency_ms} ms` : '';
  return `${r.fault.rule} (${r.fault.id}${waited})`;
}

async function replay(r: JournalRequest): Promise<void> {
  const req = replayOf(r, session.creds);
  // Not marked as the inspector's: the replay is an API request like the original, journaled and faulted.
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, credentials: 'omit' });
  ui.notes[r.id] = `Replayed ${r.method} ${pathWithQuery(r)}: answered ${res.status} (the newest entry of the journal).`;
}

async function requestView(parts: string[]): Promise<Node> {
  const id = parts[0] ?? '';
  // `id` reads that one entry whole (a list read renders a bounded amount of bodies).
  const page = await control<RequestPage>('GET', `/_sandbox/requests${qs({ id })}`);
  const r = page.requests.find((x) => x.id === id);
  if (!r)
    return section(
      `Request ${id}`,
      h('p', { text: `Not in the journal any more (it keeps the most recent ${page.size}).` }),
      link('#requests', 'Back to requests'),
    );
  const curl = curlOf(r, session.creds);
  const note = ui.notes[r.id];
  return section(
    `Request ${r.id}`,
    link('#requests', 'Back to requests'),
    facts([
      ['Method and path', `${r.method} ${pathWithQuery(r)}`],
      ['Status', r.dropped || r.status === null ? 'dropped (no answer sent)' : String(r.status)],
      ['Route', r.route_id ?? 'no route matched'],
      ['Team', r.team_id ? `${r.team_id} (${r.environment ?? '-'})` : '-'],
      ['Sandbox time', time(r.sandbox_time)],
      ['Wall time', time(r.wall_time)],
      ['Duration', `${r.duration_ms} ms`],
      ['Fault', faultText(r)],
    ]),
    h(
      'p',
      { class: 'actions' },
      copyButton(curl, 'as curl'),
      ' ',
      button('Replay', () => replay(r), { 'aria-label': `Replay ${r.id}` }),
      note ? h('span', { role: 'status', class: 'note', text: ` ${note}` }) : null,
    ),
    r.near_misses?.length
      ? h(
          'div',
          { class: 'near', role: 'note' },
          h('h3', { text: 'Near misses: routes this request nearly matched' }),
          h(
            'ul',
            null,
            r.near_misses.map((n) =>
              h(
                'li',
                null,
                code(`${n.method} ${n.surface === 'management' ? '/management' : ''}${n.path}`),
                ` (${n.kind ?? 'near'}: ${n.hint ?? ''}) `,
                code(n.route_id ?? ''),
              ),
            ),
          ),
        )
      : null,
    r.invalid?.length
      ? h(
          'div',
          { class: 'near', role: 'note' },
          h('h3', { text: 'Fields that failed validation' }),
          h(
            'ul',
            null,
            r.invalid.map((loc) => h('li', null, code(loc.join('.')))),
          ),
        )
      : null,
    h('h3', { text: 'As curl' }),
    pre(curl, 'As curl'),
    h('h3', { text: 'Request headers' }),
    pre(JSON.stringify(r.request.headers ?? {}, null, 2), 'Request headers'),
    h('h3', { text: `Request body (${r.request.body_bytes} bytes)` }),
    pre(
      r.request.body === null
        ? r.request.body_bytes
          ? '(not kept: only errors keep bodies unless --request-log-bodies)'
          : '(empty)'
        : pretty(r.request.body),
      'Request body',
    ),
    h('h3', { text: `Response body (${r.response.body_bytes} bytes, ${r.response.content_type ?? 'no type'})` }),
    pre(r.response.body === null ? (r.response.body_bytes ? '(not kept)' : '(empty)') : pretty(r.response.body), 'Response body'),
  );
}
