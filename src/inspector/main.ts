/**
 * The inspector's entry (bundled into the page by scripts/build.mjs): hash routing, the clock bar
 * (+1 hour, +1 day, +1 week, or any duration), the team picker, the tabs, and a redraw every two
 * seconds that keeps the page as it is when nothing changed (and waits while a field has focus).
 */
import { control, errorText, keysMovedUnder, session } from './api.js';
import { add, button, h, hooks } from './dom.js';
import { actionForm, field } from './forms.js';
import { time } from './format.js';
import { oneAtATime } from './redraw.js';
import type { Clock, Credentials } from './types.js';
import { TABS, tabOf, VIEWS } from './views.js';

const byId = (id: string): HTMLElement => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`The page has no #${id}`);
  return el;
};

function showError(e: unknown): void {
  const box = byId('error');
  box.textContent = e ? errorText(e) : '';
  box.hidden = !e;
}

function renderClock(clock: Clock): void {
  const bar = byId('clock');
  const [label, amount] = field('advance-by', 'Advance by', { placeholder: '3d', size: 5 });
  bar.replaceChildren();
  add(bar, [
    h(
      'span',
      null,
      'Sandbox time ',
      h('strong', { id: 'clock-now', text: time(clock.now) }),
      ` UTC (${clock.mode}${clock.scale && clock.scale !== 1 ? ` x${clock.scale}` : ''})`,
    ),
    (
      [
        ['+1 hour', 3600],
        ['+1 day', 86400],
        ['+1 week', 604800],
      ] as const
    ).map(([text, seconds]) =>
      button(text, () => control('POST', '/_sandbox/clock/advance', { seconds }), { 'aria-label': `Advance the clock ${text.slice(1)}` }),
    ),
    actionForm('Advance the clock', label, () => control('POST', '/_sandbox/clock/advance', { duration: amount.value.trim() }), 'Go'),
  ]);
}

/** The team picker, drawn again when the teams change (a reset with another seed, a scenario, a restore). */
let pickerOf = '';
function renderTeamPicker(): void {
  const box = byId('team');
  const creds = session.creds;
  const teams = JSON.stringify(creds?.teams ?? []);
  if (!creds || teams === pickerOf) return;
  pickerOf = teams;
  if (!creds.teams[session.team]) session.team = 0;
  box.replaceChildren();
  const select = h('select', {
    id: 'team-select',
    'aria-label': 'Team and environment',
    onchange: () => {
      const [team, env] = select.value.split(':');
      session.team = Number(team);
      session.env = env === 'production' ? 'production' : 'sandbox';
      void refresh();
    },
  });
  creds.teams.forEach((t, i) => {
    for (const env of ['sandbox', 'production'])
      select.appendChild(
        h('option', { value: `${i}:${env}`, text: `${t.name} / ${env}`, selected: i === session.team && env === session.env }),
      );
  });
  box.append(h('label', { for: 'team-select', text: 'Team ' }), select);
}

function renderTabs(name: string): void {
  const current = tabOf(name);
  byId('tabs').replaceChildren(
    h(
      'ul',
      null,
      TABS.map(([tab, label]) => h('li', null, h('a', { href: `#${tab}`, 'aria-current': current === tab ? 'page' : null, text: label }))),
    ),
  );
}

/** Draws the view of the hash; the page stays as it is when the new drawing is the same. */
async function draw(): Promise<void> {
  try {
    const hash = location.hash.replace(/^#/, '') || 'requests';
    const parts = hash.split('/').map((p) => decodeURIComponent(p));
    const name = VIEWS[parts[0] ?? ''] ? (parts[0] ?? 'requests') : 'requests';
    const view = VIEWS[name] ?? VIEWS['requests']!;
    // Read each time: a reset with another seed, a scenario or a restore changes the keys.
    const [clock, creds] = await Promise.all([
      control<Clock>('GET', '/_sandbox/clock'),
      control<Credentials>('GET', '/_sandbox/credentials'),
    ]);
    session.creds = creds;
    renderClock(clock);
    renderTeamPicker();
    renderTabs(name);
    const node = await view(parts.slice(1), clock);
    const main = byId('view');
    const same = main.getAttribute('data-view') === name && main.firstElementChild?.outerHTML === (node as Element).outerHTML;
    if (!same) {
      const active = document.activeElement?.id;
      const y = window.scrollY;
      main.replaceChildren(node);
      main.setAttribute('data-view', name);
      if (active) document.getElementById(active)?.focus();
      window.scrollTo(0, y);
    }
    main.setAttribute('data-hash', hash);
    showError(null);
  } catch (e) {
    // A team read answered 401 because a reset changed the keys meanwhile: draw again, no error.
    if (await keysMovedUnder(e, () => control<Credentials>('GET', '/_sandbox/credentials'))) void refresh();
    else showError(e);
  } finally {
    document.body.setAttribute('data-ready', '1');
  }
}

/** A redraw, one at a time (redraw.ts): one asked for while another draws runs right after it. */
const refresh = oneAtATime(draw);

/** Whether the person is typing in a field of the view (a redraw would disturb them). */
function typing(): boolean {
  const el = document.activeElement;
  return !!el && el.closest('#view, #clock') !== null && /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
}

hooks.error = showError;
hooks.refresh = () => void refresh();
window.addEventListener('hashchange', () => void refresh());
window.addEventListener('load', () => {
  void refresh();
  setInterval(() => {
    if (!document.hidden && !typing()) void refresh();
  }, 2000);
});
