/**
 * Lab orders of the selected team environment (pages of 50) and one order: facts, the
 * `POST /v3/order/{id}/test` button, a lab fault, the status timeline, appointment and results.
 * Any part of an order may be empty (a test-kit order of a default world has `patient_details: null`).
 */
import { control, session, teamApi, teamOf } from './api.js';
import { button, code, facts, h, link, pager, pre, row, section, status, table } from './dom.js';
import { actionForm, choice } from './forms.js';
import { indented, patientName, qs, rangeText, short, time } from './format.js';
import { PAGE_SIZE } from './paging.js';
import { pageNumber, ui } from './state.js';
import type { Order, ResultMarker } from './types.js';
import type { View } from './view.js';
import { LAB_FAULTS } from '../state/sandbox/lab-fault-kinds.js';

const orderStatus = (o: Order) => o.last_event?.status ?? o.status ?? '-';

export const ordersView: View = async (parts, clock) => {
  if (parts[0]) return orderView(parts, clock);
  const at = pageNumber('orders');
  const page = await teamApi<{ orders?: Order[] | null; total?: number | null }>(
    'GET',
    `/v3/orders${qs({ page: at + 1, size: PAGE_SIZE })}`,
  );
  const orders = page.orders ?? [];
  const total = page.total ?? orders.length;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return section(
    `Lab orders of ${teamOf()?.name ?? 'no team'} / ${session.env}`,
    pager(
      'orders',
      { page: at, pages, total, first: orders.length ? at * PAGE_SIZE + 1 : 0, last: at * PAGE_SIZE + orders.length },
      (n) => {
        ui.pages['orders'] = Math.max(0, Math.min(n, pages - 1));
      },
    ),
    table(
      ['Order', 'Patient', 'Lab test', 'Method', 'Status', 'Updated'],
      orders.map((o) =>
        row([
          link(`#orders/${o.id}`, short(o.id)),
          patientName(o.patient_details),
          o.lab_test?.name ?? '-',
          o.lab_test?.method ?? '-',
          h('span', { class: 'status', text: orderStatus(o) }),
          time(o.updated_at),
        ]),
      ),
      'Lab orders (newest first)',
    ),
  );
};

function pdfButton(path: string, label: string): HTMLButtonElement {
  return button(label, async () => {
    const blob = await teamApi<Blob>('GET', path);
    window.open(URL.createObjectURL(blob), '_blank');
  });
}

const orNull = <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

async function orderView(parts: string[], _clock: unknown): Promise<Node> {
  const id = parts[0] ?? '';
  const o = await teamApi<Order>('GET', `/v3/order/${id}`);
  const method = o.lab_test?.method ?? '';
  const kind = method === 'at_home_phlebotomy' ? 'phlebotomy' : method === 'walk_in_test' ? 'psc' : null;
  const events = o.events ?? [];
  const seen = events.map((e) => e.status).join(' ');
  // Asked only when they exist (a 404 would be an error in the browser's console).
  const hasAppointment = kind !== null && !!o.details?.data?.appointment_id;
  const hasResult = /partial_results|completed|corrected/.test(seen);
  const [appt, result] = await Promise.all([
    hasAppointment ? orNull(teamApi<unknown>('GET', `/v3/order/${id}/${kind}/appointment`)) : null,
    hasResult ? orNull(teamApi<{ results?: ResultMarker[] | null }>('GET', `/v3/order/${id}/result`)) : null,
  ]);
  const [faultLabel, fault] = choice('lab-fault', 'Lab fault', LAB_FAULTS);
  const markers = result?.results ?? [];
  return section(
    `Order ${short(o.id)}`,
    link('#orders', 'Back to orders'),
    facts(
      [
        ['Order id', o.id],
        ['Status', o.status ?? '-'],
        ['Low-level status', o.last_event?.status ?? '-'],
        ['Lab test', `${o.lab_test?.name ?? '-'} (${method || '-'})`],
        ['Patient', patientName(o.patient_details)],
        ['User', o.user_id ? link(`#user/${o.user_id}`, o.user_id) : '-'],
      ],
      { 'Low-level status': 'order-status' },
    ),
    h(
      'p',
      null,
      button('Move on (POST /v3/order/{id}/test)', () => teamApi('POST', `/v3/order/${id}/test`, {})),
    ),
    actionForm(
      'Apply a lab fault',
      faultLabel,
      () => control('POST', `/_sandbox/orders/${id}/fault`, { fault: fault.value }),
      'Apply the fault',
    ),
    h('h3', { text: 'Status timeline' }),
    h(
      'ol',
      { class: 'timeline', 'aria-label': 'Status timeline' },
      events.length
        ? events.map((e) =>
            h(
              'li',
              null,
              h('time', { datetime: e.created_at, text: time(e.created_at) }),
              ' ',
              code(e.status),
              e.status_detail ? ` (${e.status_detail})` : '',
            ),
          )
        : h('li', { text: 'No status yet.' }),
    ),
    h('h3', { text: 'Appointment' }),
    appt ? pre(indented(appt), 'Appointment') : h('p', { text: 'None.' }),
    h('h3', { text: 'Results' }),
    result
      ? h(
          'div',
          null,
          h('p', { text: `${markers.length} results` }),
          pdfButton(`/v3/order/${id}/result/pdf`, 'Open the result PDF'),
          table(
            ['Marker', 'Value', 'Unit', 'Range', 'Flag'],
            markers
              .slice(0, 200)
              .map((m) =>
                row([
                  m.name ?? '-',
                  String(m.result ?? m.value ?? '-'),
                  m.unit ?? '',
                  rangeText(m.min_range_value, m.max_range_value),
                  m.interpretation ? status(m.interpretation, m.interpretation === 'normal' ? 's2' : 's5') : '',
                ]),
              ),
            'Results',
          ),
        )
      : h('p', { text: 'No results yet.' }),
  );
}
