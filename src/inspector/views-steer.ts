/**
 * Steering the sandbox from the page ("Faults & snapshots"): HTTP fault rules (add, edit as JSON,
 * remove), domain faults (a lab fault on an order, a provider outage, a connection error),
 * snapshots (take, restore, drop), reset, a scenario file loaded or dropped. Every action is a
 * control-plane route; an edited rule is added first and the old one removed only once the new
 * one was accepted, so a rejected edit changes nothing.
 */
import { control } from './api.js';
import { button, code, h, pre, row, section, table } from './dom.js';
import { actionForm, choice, clearTyped, field, setTyped, textArea } from './forms.js';
import { time } from './format.js';
import { LAB_FAULTS } from '../state/sandbox/lab-fault-kinds.js';
import { ERROR_TYPES as CONNECTION_ERRORS } from '../state/wearables/connection-error-types.js';
import { ui } from './state.js';
import type { FaultRule, Snapshot } from './types.js';
import type { View } from './view.js';

const RULE_TEMPLATE = JSON.stringify({ match: { method: 'GET', path: '/v2/user/*' }, action: { status: 503 }, times: 3 }, null, 2);

/** The body of a rule as it is edited: what POST /_sandbox/faults takes. */
export function ruleBody(f: Pick<FaultRule, 'match' | 'action' | 'remaining'>): string {
  const body: Record<string, unknown> = { match: f.match, action: f.action };
  if (typeof f.remaining === 'number') body['times'] = f.remaining;
  return JSON.stringify(body, null, 2);
}

export const steerView: View = async () => {
  const [faults, snaps] = await Promise.all([
    control<{ faults?: FaultRule[] | null }>('GET', '/_sandbox/faults'),
    control<{ snapshots?: Snapshot[] | null }>('GET', '/_sandbox/snapshots'),
  ]);
  const editing = ui.filters['edit']?.['rule'];
  const [ruleLabel, rule] = textArea('fault-rule', editing ? `Edit rule ${editing.slice(0, 8)} (JSON)` : 'New rule (JSON)', RULE_TEMPLATE);
  const saveRule = async () => {
    const body: unknown = JSON.parse(rule.value);
    await control('POST', '/_sandbox/faults', body);
    if (editing) await control('DELETE', `/_sandbox/faults/${editing}`).catch(() => undefined);
    ui.filters['edit'] = {};
    clearTyped('fault-rule');
  };

  const [providerLabel, provider] = field('outage-provider', 'Provider', { placeholder: 'fitbit', size: 12 });
  const [durationLabel, duration] = field('outage-duration', 'for', { placeholder: '2h', size: 6 });
  const [userLabel, user] = field('conn-user', 'User id', { size: 14 });
  const [connLabel, connProvider] = field('conn-provider', 'Provider', { placeholder: 'oura', size: 10 });
  const [typeLabel, type] = choice('conn-error', 'Error', CONNECTION_ERRORS);
  const [orderLabel, order] = field('fault-order', 'Order id', { size: 14 });
  const [labLabel, labFault] = choice('fault-lab', 'Lab fault', LAB_FAULTS);
  const [snapLabel, snapName] = field('snapshot-name', 'Name', { placeholder: 'before-the-outage', size: 16 });
  const [seedLabel, seed] = field('reset-seed', 'Seed (optional)', { size: 8, inputmode: 'numeric' });
  const file = h('input', { type: 'file', id: 'scenario-file', accept: '.json,.yaml,.yml' });

  return section(
    'Faults & snapshots',
    h('p', {
      class: 'note',
      text: 'HTTP fault rules in force (docs/testing.md "Rehearsing failures"), domain faults, the worlds saved in memory, reset and scenarios.',
    }),
    table(
      ['Rule', 'Match', 'Action', 'Left', 'Matched', 'Fired', ''],
      (faults.faults ?? []).map((f) =>
        row([
          code(f.id.slice(0, 8)),
          pre(JSON.stringify(f.match, null, 2), 'Match'),
          pre(JSON.stringify(f.action, null, 2), 'Action'),
          f.remaining === null || f.remaining === undefined ? 'unlimited' : String(f.remaining),
          String(f.matched),
          String(f.fired),
          [
            button('Edit', () => {
              ui.filters['edit'] = { rule: f.id };
              setTyped('fault-rule', ruleBody(f));
            }),
            ' ',
            button('Remove', () => control('DELETE', `/_sandbox/faults/${f.id}`)),
          ],
        ]),
      ),
      'Fault rules',
    ),
    actionForm(
      editing ? 'Edit the fault rule' : 'Add a fault rule',
      [ruleLabel, rule],
      saveRule,
      editing ? 'Save the rule' : 'Add the rule',
    ),
    editing
      ? button('Cancel the edit', () => {
          ui.filters['edit'] = {};
          clearTyped('fault-rule');
        })
      : null,
    h('h3', { text: 'Domain faults' }),
    actionForm(
      'Provider outage',
      [providerLabel, durationLabel],
      () =>
        control('POST', `/_sandbox/providers/${encodeURIComponent(provider.value.trim())}/outage`, {
          duration: duration.value.trim() || '1h',
        }),
      'Start the outage',
    ),
    actionForm(
      'Connection error',
      [userLabel, connLabel, typeLabel],
      () =>
        control(
          'POST',
          `/_sandbox/connections/${encodeURIComponent(user.value.trim())}/${encodeURIComponent(connProvider.value.trim())}/error`,
          {
            error_type: type.value,
          },
        ),
      'Break the connection',
    ),
    actionForm(
      'Lab fault',
      [orderLabel, labLabel],
      () => control('POST', `/_sandbox/orders/${encodeURIComponent(order.value.trim())}/fault`, { fault: labFault.value }),
      'Apply the lab fault',
    ),
    h('h3', { text: 'Snapshots' }),
    actionForm(
      'Take a snapshot',
      snapLabel,
      () => control('POST', '/_sandbox/snapshots', { name: snapName.value.trim() }),
      'Take a snapshot',
    ),
    table(
      ['Snapshot', 'Sandbox time', 'Seed', 'Inputs', ''],
      (snaps.snapshots ?? []).map((x) =>
        row([
          x.name,
          time(x.now),
          String(x.seed),
          String(x.inputs),
          [
            button('Restore', () => control('POST', `/_sandbox/snapshots/${encodeURIComponent(x.name)}/restore`), {
              'aria-label': `Restore ${x.name}`,
            }),
            ' ',
            button('Drop', () => control('DELETE', `/_sandbox/snapshots/${encodeURIComponent(x.name)}`), {
              'aria-label': `Drop ${x.name}`,
            }),
          ],
        ]),
      ),
      'Snapshots',
    ),
    h('h3', { text: 'The world' }),
    actionForm(
      'Reset',
      seedLabel,
      () => control('POST', '/_sandbox/reset', seed.value.trim() ? { seed: Number(seed.value.trim()) } : {}),
      'Reset the world',
    ),
    actionForm(
      'Load a scenario',
      h('label', { for: 'scenario-file' }, 'Scenario file (JSON or YAML) ', file),
      async () => {
        const chosen = file.files?.[0];
        if (!chosen) throw new Error('Choose a scenario file first');
        // The file's text as a JSON string: the sandbox reads it as JSON or YAML and names any problem's path.
        await control('PUT', '/_sandbox/scenario', await chosen.text());
      },
      'Load the scenario',
    ),
    button('Drop the scenario', () => control('DELETE', '/_sandbox/scenario')),
  );
};
