/**
 * HTML of the sandbox's Link widget, consent and done pages: self-contained (inline style and
 * script, no external assets). The widget page drives the JSON link API with the link token,
 * as a custom widget would.
 */
import type { ConsentView, WidgetModel } from '../../state/link/widget.js';
import { LINK_MESSAGE_SOURCE } from './launcher-script.js';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}button,input{font:inherit;padding:.5rem;margin:.25rem 0;width:100%;box-sizing:border-box}
ul{list-style:none;padding:0}li{margin:.25rem 0}.error{color:#b00020}.hidden{display:none}
.sandbox-only{border:1px dashed #b26a00;background:#fff8e1;padding:.5rem;font-size:.85rem}code{font-size:.85rem}`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** JSON safe to embed in a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

/**
 * Reports an outcome to the page that opened the widget through the launcher (its parent frame,
 * or the window that opened a popup), to that page's origin only.
 */
const REPORT = `const report = (opener, event, metadata) => {
  const target = window.parent !== window ? window.parent : window.opener;
  if (target && opener) target.postMessage({ source: ${JSON.stringify(LINK_MESSAGE_SOURCE)}, event, metadata }, opener);
};`;

const SCRIPT = `
const M = JSON.parse(document.getElementById('model').textContent);
const $ = (id) => document.getElementById(id);
${REPORT}
const finish = (params) => {
  if (M.opener) return report(M.opener, params.state === 'success' ? 'success' : 'error', params);
  const u = M.finish + (M.finish.includes('?') ? '&' : '?') + new URLSearchParams(params).toString(); window.location.assign(u);
};
const api = async (method, path, body) => {
  const res = await fetch(M.base + path, { method, headers: { 'x-vital-link-token': M.token, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
};
let current = null;
const show = (id) => { for (const s of ['list', 'form', 'mfa']) $(s).classList.toggle('hidden', s !== id); };
const fail = (r) => {
  const type = r.body.error_type || (r.body.detail && r.body.detail.error_type) || 'provider_api_error';
  const text = r.body.error || (r.body.detail && r.body.detail.error_message) || 'Error';
  if (M.on_error === 'redirect') return finish({ state: 'error', error_type: type, error: text });
  $('error').textContent = text; $('error').dataset.type = type;
};
const outcome = (r) => {
  if (r.status !== 200) return fail(r);
  if (r.body.state === 'success') return finish({ state: 'success' });
  if (r.body.state === 'pending_provider_mfa') { $('mfa-hint').textContent = 'Enter the code sent to ' + r.body.provider_mfa.hint; $('error').textContent = ''; return show('mfa'); }
  fail(r);
};
const open = async (p) => {
  current = p; $('error').textContent = '';
  if (p.auth_type === 'oauth' || p.auth_type === 'team_oauth') {
    const r = await api('GET', '/v2/link/provider/oauth/' + p.slug);
    if (r.status !== 200) return fail(r);
    return window.location.assign(r.body.oauth_url + (M.opener ? '&opener=' + encodeURIComponent(M.opener) : ''));
  }
  $('form-title').textContent = 'Connect ' + p.name;
  for (const row of ['username-row', 'password-row', 'password-hints']) $(row).classList.toggle('hidden', p.auth_type !== 'password');
  for (const row of ['email-row', 'email-hints']) $(row).classList.toggle('hidden', p.auth_type !== 'email');
  show('form');
};
for (const p of M.providers) {
  const li = document.createElement('li'); const b = document.createElement('button');
  b.textContent = p.name; b.id = 'provider-' + p.slug; b.onclick = () => open(p); li.appendChild(b); $('providers').appendChild(li);
}
$('connect').onclick = async () => {
  const p = current;
  const r = p.auth_type === 'password'
    ? await api('POST', '/v2/link/provider/password/' + p.slug, { username: $('username').value, password: $('password').value })
    : await api('POST', '/v2/link/provider/email/' + p.slug, { email: $('email').value, region: 'us' });
  outcome(r);
};
$('submit-mfa').onclick = async () => outcome(await api('POST', '/v2/link/provider/password/' + current.slug + '/complete_mfa', { mfa_code: $('mfa-code').value }));
$('back').onclick = () => show('list');
$('close').onclick = async () => {
  await api('POST', '/link/close');
  const outcome = { state: 'error', error_type: 'user_cancelled', error: 'The user cancelled the connection.' };
  if (M.opener) return report(M.opener, 'exit', outcome);
  finish(outcome);
};
if (M.open) { const p = M.providers.find((x) => x.slug === M.open); if (p) open(p); }
`;

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;
const list = (items: readonly string[]): string => items.map(code).join(', ');

/** The sandbox's credentials, in boxes marked sandbox-only (the real widget has none). */
function hints(h: WidgetModel['sandbox']): { password: string; email: string; mfa: string } {
  const box = (id: string, body: string) => `<p class="sandbox-only hidden" id="${id}"><strong>Sandbox only:</strong> ${body}</p>`;
  return {
    password: box(
      'password-hints',
      `password ${code(h.password)} connects (any username); ${list(h.mfa_passwords)} ask for an MFA code; ${list(h.error_passwords)} fail with that error.`,
    ),
    email: box('email-hints', `any e-mail address connects; ${list(h.error_emails)} fail with that error.`),
    mfa: `<p class="sandbox-only" id="mfa-sandbox"><strong>Sandbox only:</strong> the code is ${code(h.mfa_code)}; any other code is incorrect.</p>`,
  };
}

export function widgetPage(model: WidgetModel): string {
  const h = hints(model.sandbox);
  return page(
    'Connect a device',
    `<h1>Connect a device</h1><p class="error" id="error" role="alert"></p>
<section id="list"><ul id="providers"></ul></section>
<section id="form" class="hidden"><h2 id="form-title"></h2>
<label id="username-row">Username <input id="username" autocomplete="username"></label>
<label id="password-row">Password <input id="password" type="password" autocomplete="current-password"></label>
<label id="email-row">E-mail <input id="email" type="email"></label>${h.password}${h.email}
<button id="connect" type="button">Connect</button><button id="back" type="button">Back</button></section>
<section id="mfa" class="hidden"><p id="mfa-hint"></p>${h.mfa}<input id="mfa-code" inputmode="numeric"><button id="submit-mfa" type="button">Submit code</button></section>
<button id="close" type="button">Close</button>
<script type="application/json" id="model">${scriptJson(model)}</script><script>${SCRIPT}</script>`,
  );
}

/**
 * A page that reports an outcome to the launcher's page (`opener`: its origin) as soon as it
 * loads: where a launched flow ends (done page, unusable token).
 */
export function reportingPage(
  title: string,
  text: string,
  opener: string,
  event: 'success' | 'error',
  metadata: Record<string, string>,
): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(text)}</p>
<script type="application/json" id="outcome">${scriptJson({ opener, event, metadata })}</script>
<script>${REPORT}
const O = JSON.parse(document.getElementById('outcome').textContent); report(O.opener, O.event, O.metadata);</script>`,
  );
}

export function consentPage(view: ConsentView): string {
  return page(
    `Authorize ${view.name}`,
    `<h1>${escapeHtml(view.name)} (sandbox)</h1><p>Allow the team's app to read this ${escapeHtml(view.name)} account's health data?</p>
<p class="sandbox-only" id="consent-sandbox"><strong>Sandbox only:</strong> no ${escapeHtml(view.name)} account is needed: Allow connects, Deny cancels (<code>user_cancelled</code>).</p>
<form method="post" action="${escapeHtml(view.allow)}"><input type="hidden" name="scopes_shown" value="1">${view.scopes.length > 0 ? `<fieldset id="scopes"><legend>Share</legend>${view.scopes.map((s) => `<label><input type="checkbox" name="scope" value="${escapeHtml(s.scope)}" checked> ${escapeHtml(s.scope)}${s.required ? ' (required by the app)' : ''}</label><br>`).join('')}</fieldset>` : ''}<button id="allow" type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(view.deny)}"><button id="deny" type="submit">Deny</button></form>`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(text)}</p>`);
}
