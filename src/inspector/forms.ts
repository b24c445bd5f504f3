/** Form helpers: a filter bar whose values live in `ui.filters`, labelled inputs and selects. */
import { type Child, h, hooks } from './dom.js';
import { filtersOf } from './state.js';

/** A filter bar: `fields` are [name, label, placeholder, size]; Apply (or Enter) redraws. */
export function filterForm(
  key: string,
  fields: ReadonlyArray<readonly [string, string, string?, number?]>,
  extra?: Child,
): HTMLFormElement {
  const values = filtersOf(key);
  return h(
    'form',
    {
      class: 'filters',
      role: 'search',
      'aria-label': 'Filter',
      onsubmit: (e: Event) => {
        e.preventDefault();
        hooks.refresh();
      },
    },
    fields.map(([name, label, placeholder, size]) => {
      const id = `${key}-${name}`;
      return h(
        'label',
        { for: id },
        `${label} `,
        h('input', {
          id,
          name,
          value: values[name] ?? '',
          placeholder: placeholder ?? '',
          size: size ?? 12,
          oninput: (e: Event) => {
            values[name] = (e.target as HTMLInputElement).value;
          },
        }),
      );
    }),
    h('button', { type: 'submit', text: 'Apply' }),
    extra,
  );
}

/** What was typed in the action forms, kept across redraws (the page redraws every two seconds). */
const typed = filtersOf('forms');

/** A labelled input whose value is read at submit time and kept across redraws. */
export function field(id: string, label: string, attrs: Record<string, string | number> = {}): [HTMLLabelElement, HTMLInputElement] {
  const input = h('input', {
    id,
    name: id,
    ...attrs,
    value: typed[id] ?? attrs['value'] ?? '',
    oninput: () => {
      typed[id] = input.value;
    },
  });
  return [h('label', { for: id }, `${label} `, input), input];
}

export function choice(id: string, label: string, options: readonly string[], selected?: string): [HTMLLabelElement, HTMLSelectElement] {
  const chosen = typed[id] ?? selected;
  const select = h(
    'select',
    {
      id,
      name: id,
      onchange: () => {
        typed[id] = select.value;
      },
    },
    options.map((o) => h('option', { value: o, text: o, selected: o === chosen })),
  );
  return [h('label', { for: id }, `${label} `, select), select];
}

/** A labelled text area, kept across redraws. */
export function textArea(id: string, label: string, initial: string, rows = 8): [HTMLLabelElement, HTMLTextAreaElement] {
  const area = h('textarea', {
    id,
    name: id,
    rows,
    cols: 70,
    spellcheck: 'false',
    oninput: () => {
      typed[id] = area.value;
    },
  });
  area.value = typed[id] ?? initial;
  return [h('label', { for: id, class: 'block' }, label), area];
}

/** Sets a kept form value (an Edit button filling the form). */
export function setTyped(id: string, value: string): void {
  typed[id] = value;
}

export function clearTyped(id: string): void {
  delete typed[id];
}

/** A form that runs `action` on submit (errors in the page's alert, redraw after). */
export function actionForm(label: string, children: Child, action: () => Promise<unknown>, submit = 'Apply'): HTMLFormElement {
  const go = h('button', { type: 'submit', text: submit });
  return h(
    'form',
    {
      class: 'filters',
      'aria-label': label,
      onsubmit: (e: Event) => {
        e.preventDefault();
        go.disabled = true;
        action()
          .then(
            () => hooks.error(null),
            (err: unknown) => hooks.error(err),
          )
          .then(() => {
            go.disabled = false;
            hooks.refresh();
          });
      },
    },
    children,
    go,
  );
}
