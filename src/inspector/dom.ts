/** The inspector's DOM helpers: elements from attributes and children, tables, links, buttons that report errors. */

export type Child = Node | string | number | null | undefined | false | readonly Child[];
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

export function add(el: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child as readonly Child[]) add(el, c);
    return;
  }
  el.appendChild(typeof child === 'object' ? (child as Node) : document.createTextNode(String(child)));
}

/** An element: `text` sets its text, `on*` adds a listener, other attributes are set (true as empty, false or null left out). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) add(el, c);
  return el;
}

export function svg(tag: string, attrs: Record<string, string | number>, ...children: Array<Node | null>): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.appendChild(c);
  return el;
}

export function table(heads: readonly string[], rows: readonly Node[], caption?: string): HTMLTableElement {
  return h(
    'table',
    null,
    caption ? h('caption', { text: caption }) : null,
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        heads.map((x) => h('th', { scope: 'col', text: x })),
      ),
    ),
    h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: heads.length, class: 'empty', text: 'Nothing yet.' }))),
  );
}

export function row(cells: readonly Child[], attrs?: Attrs | null): HTMLTableRowElement {
  return h(
    'tr',
    attrs,
    cells.map((c) => h('td', null, c)),
  );
}

export function link(href: string, text: string): HTMLAnchorElement {
  return h('a', { href, text });
}

export function pre(text: string, label?: string): HTMLPreElement {
  return h('pre', { tabindex: '0', 'aria-label': label ?? null, text });
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { 'aria-label': title }, h('h2', { text: title }), children);
}

export function code(text: string): HTMLElement {
  return h('code', { text });
}

export function status(text: string, cls: string): HTMLSpanElement {
  return h('span', { class: `status ${cls}`, text });
}

/** Facts as a definition list. */
export function facts(pairs: ReadonlyArray<readonly [string, Child]>, ids: Record<string, string> = {}): HTMLDListElement {
  return h(
    'dl',
    { class: 'facts' },
    pairs.map(([term, value]) => [h('dt', { text: term }), h('dd', { id: ids[term] ?? null }, value)]),
  );
}

/** The hooks buttons call: report an error, redraw after an action. Set by main.ts. */
export const hooks: { error: (e: unknown) => void; refresh: () => void } = { error: () => undefined, refresh: () => undefined };

/** A button running an action; disabled while it runs, errors shown in the page's alert, the view redrawn after. */
export function button(text: string, action: () => unknown, attrs: Attrs = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', text, ...attrs });
  b.addEventListener('click', () => {
    b.disabled = true;
    Promise.resolve()
      .then(action)
      .then(
        () => hooks.error(null),
        (e: unknown) => hooks.error(e),
      )
      .then(() => {
        b.disabled = false;
        hooks.refresh();
      });
  });
  return b;
}

export function copyButton(value: string, label: string): HTMLButtonElement {
  return button('Copy', () => navigator.clipboard?.writeText(value).catch(() => undefined), {
    'aria-label': `Copy ${label}`,
    class: 'small',
  });
}

/** Previous / next buttons and where the page is. */
export function pager(
  label: string,
  p: { page: number; pages: number; first: number; last: number; total: number },
  go: (page: number) => void,
): HTMLElement {
  return h(
    'nav',
    { class: 'pager', 'aria-label': `${label} pages` },
    button('Previous', () => go(p.page - 1), { disabled: p.page <= 0, 'aria-label': `Previous page of ${label}`, class: 'small' }),
    h('span', { text: ` ${p.first}-${p.last} of ${p.total} (page ${p.page + 1} of ${p.pages}) ` }),
    button('Next', () => go(p.page + 1), { disabled: p.page >= p.pages - 1, 'aria-label': `Next page of ${label}`, class: 'small' }),
  );
}
