/**
 * The Report tab: what `GET /_sandbox/report` answers, when this sandbox has that route (it is
 * looked up in `GET /_sandbox/routes` first, so a sandbox without it shows a note, not an error).
 * A JSON answer is shown indented, a text or HTML one as text.
 */
import { control } from './api.js';
import { h, pre, section } from './dom.js';
import { indented } from './format.js';
import type { View } from './view.js';

const REPORT_PATH = '/_sandbox/report';

export const reportView: View = async () => {
  const { routes } = await control<{ routes?: Array<{ method: string; path: string; summary?: string | null }> | null }>(
    'GET',
    '/_sandbox/routes',
  );
  const route = (routes ?? []).find((r) => r.method === 'GET' && r.path === REPORT_PATH);
  if (!route) return section('Report', h('p', { class: 'note', text: `This sandbox has no ${REPORT_PATH} route.` }));
  const answer = await control<unknown>('GET', REPORT_PATH);
  const text = answer instanceof Blob ? await answer.text() : indented(answer);
  return section('Report', route.summary ? h('p', { class: 'note', text: route.summary }) : null, pre(text, 'Report'));
};
