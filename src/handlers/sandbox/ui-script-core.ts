/**
 * The inspector's script, part 1 (plain browser JavaScript, served inline by `/_sandbox/ui`; no
 * framework, no network beyond the sandbox): DOM helpers, the API helper (control plane, and the
 * team API with the selected team's key; every request carries `x-sandbox-inspector` so the
 * request journal does not record the inspector's own polling), hash routing, the clock bar and
 * the refresh loop. Views are in `ui-script-views.ts` and `ui-script-world.ts`. Written without
 * template literals: it lives inside one.
 */
export const UI_SCRIPT_CORE = String.raw`
'use strict';
var S = { creds: null, team: 0, env: 'sandbox', view: '', busy: false, filters: {}, timer: null };
var VIEWS = {};
var TABS = [['requests', 'Requests'], ['teams', 'Teams & keys'], ['users', 'Users'], ['orders', 'Lab orders'], ['webhooks', 'Webhooks'], ['events', 'Events'], ['faults', 'Faults & snapshots']];

function h(tag, attrs) {
  var el = document.createElement(tag);
  if (attrs) for (var k in attrs) {
    var v = attrs[k];
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') el.textContent = String(v);
    else if (k.slice(0, 2) === 'on') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
  return el;
}
function add(el, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { add(el, c); }); return; }
  el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
}
function svgEl(tag, attrs) {
  var el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (var k in attrs) el.setAttribute(k, String(attrs[k]));
  for (var i = 2; i < arguments.length; i++) if (arguments[i]) el.appendChild(arguments[i]);
  return el;
}
function mask(v) { return v ? v.slice(0, Math.min(8, Math.floor(v.length / 3))) + '***' : ''; }
function short(id) { return id ? String(id).slice(0, 8) : ''; }
function time(iso) { return iso ? String(iso).replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : ''; }
function indented(v) { return JSON.stringify(v, null, 2); }
function pretty(text) { if (text === null || text === undefined) return ''; try { return indented(JSON.parse(text)); } catch (e) { return text; } }
function statusClass(s) { return s >= 500 ? 's5' : s >= 400 ? 's4' : 's2'; }
function qs(o) {
  var p = [];
  for (var k in o) if (o[k] !== undefined && o[k] !== null && o[k] !== '') p.push(encodeURIComponent(k) + '=' + encodeURIComponent(o[k]));
  return p.length ? '?' + p.join('&') : '';
}
function teamOf() { return S.creds && S.creds.teams[S.team]; }
function apiKey() { var t = teamOf(); return t ? t.api_keys[S.env] : ''; }

/** One request: the control plane (team false) or the team API with the selected key. */
function api(method, path, body, team) {
  var headers = { 'x-sandbox-inspector': '1' };
  if (team) headers['x-vital-api-key'] = apiKey();
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
    var type = res.headers.get('content-type') || '';
    var read = type.indexOf('json') >= 0 ? res.json() : res.blob();
    return read.then(function (data) {
      if (!res.ok) { var err = new Error(method + ' ' + path + ' answered ' + res.status); err.status = res.status; err.body = data; throw err; }
      return data;
    });
  });
}
function teamApi(method, path, body) { return api(method, path, body, true); }

function table(heads, rows, caption) {
  return h('table', null, caption ? h('caption', { text: caption }) : null,
    h('thead', null, h('tr', null, heads.map(function (x) { return h('th', { scope: 'col', text: x }); }))),
    h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: heads.length, class: 'empty', text: 'Nothing yet.' }))));
}
function row(cells, attrs) { return h('tr', attrs, cells.map(function (c) { return h('td', null, c); })); }
function link(href, text) { return h('a', { href: href, text: text }); }
function button(text, onclick, attrs) {
  var b = h('button', Object.assign({ type: 'button', text: text }, attrs || {}));
  b.addEventListener('click', function () {
    b.disabled = true;
    Promise.resolve().then(onclick).catch(showError).then(function () { b.disabled = false; refresh(); });
  });
  return b;
}
function section(title) { return h('section', { 'aria-label': title }, h('h2', { text: title }), Array.prototype.slice.call(arguments, 1)); }
function pre(text, label) { return h('pre', { tabindex: '0', 'aria-label': label || null, text: text }); }
function copyButton(value, label) {
  return button('Copy', function () { return navigator.clipboard ? navigator.clipboard.writeText(value).catch(function () {}) : null; }, { 'aria-label': 'Copy ' + label, class: 'small' });
}
function showError(e) {
  var box = document.getElementById('error');
  box.textContent = e ? (e.message || String(e)) + (e.body && e.body.detail ? ': ' + JSON.stringify(e.body.detail) : '') : '';
  box.hidden = !e;
}

/** Draws the clock bar: sandbox now, mode, advance buttons. */
function renderClock(clock) {
  var bar = document.getElementById('clock');
  bar.replaceChildren();
  add(bar, [
    h('span', null, 'Sandbox time ', h('strong', { id: 'clock-now', text: time(clock.now) }), ' (' + clock.mode + (clock.scale !== 1 ? ' x' + clock.scale : '') + ')'),
    [['+1 hour', 3600], ['+1 day', 86400], ['+1 week', 604800]].map(function (a) {
      return button(a[0], function () { return api('POST', '/_sandbox/clock/advance', { seconds: a[1] }); }, { 'aria-label': 'Advance the clock ' + a[0].slice(1) });
    })]);
}

function renderTeamPicker() {
  var box = document.getElementById('team');
  if (!S.creds || box.childNodes.length) return;
  var sel = h('select', { id: 'team-select', 'aria-label': 'Team and environment', onchange: function () { var v = sel.value.split(':'); S.team = Number(v[0]); S.env = v[1]; refresh(); } });
  S.creds.teams.forEach(function (t, i) {
    ['sandbox', 'production'].forEach(function (env) { sel.appendChild(h('option', { value: i + ':' + env, text: t.name + ' / ' + env })); });
  });
  box.appendChild(h('label', { for: 'team-select', text: 'Team ' }));
  box.appendChild(sel);
}

function renderTabs(name) {
  var nav = document.getElementById('tabs');
  nav.replaceChildren(h('ul', null, TABS.map(function (t) {
    var current = name === t[0] || name.indexOf(t[0].replace(/s$/, '')) === 0;
    return h('li', null, h('a', { href: '#' + t[0], 'aria-current': current ? 'page' : null, text: t[1] }));
  })));
}

/** Renders the current view (from the hash), keeping focus and scroll where they were. */
function refresh() {
  if (S.busy) return Promise.resolve();
  S.busy = true;
  var hash = location.hash.replace(/^#/, '') || 'requests';
  var parts = hash.split('/');
  var name = parts[0];
  var view = VIEWS[name] || VIEWS.requests;
  return Promise.all([api('GET', '/_sandbox/clock'), S.creds ? S.creds : api('GET', '/_sandbox/credentials')])
    .then(function (r) {
      S.creds = r[1];
      renderClock(r[0]);
      renderTeamPicker();
      renderTabs(name);
      return view(parts.slice(1).map(decodeURIComponent), r[0]);
    })
    .then(function (node) {
      var main = document.getElementById('view');
      // Nothing changed: keep the page as it is (no flicker, focus and selection stay).
      if (main.getAttribute('data-view') === name && main.firstElementChild && main.firstElementChild.outerHTML === node.outerHTML) return;
      var active = document.activeElement && document.activeElement.id;
      var y = window.scrollY;
      main.replaceChildren(node);
      main.setAttribute('data-view', name);
      if (active) { var el = document.getElementById(active); if (el) el.focus(); }
      window.scrollTo(0, y);
      showError(null);
    })
    .catch(showError)
    .then(function () { S.busy = false; document.body.setAttribute('data-ready', '1'); });
}

window.addEventListener('hashchange', function () { S.view = ''; refresh(); });
window.addEventListener('load', function () {
  refresh();
  S.timer = setInterval(function () { if (!document.hidden && !S.paused) refresh(); }, 2000);
});
`;
