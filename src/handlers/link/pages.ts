/**
 * HTML of the sandbox's Link widget, consent and done pages: self-contained (inline style and
 * script, no external assets). The widget page drives the JSON link API with the link token,
 * as a custom widget would.
 */
import type { ConsentView, WidgetModel } from '../../state/link/widget.js';

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}button,input{font:inherit;padding:.5rem;margin:.25rem 0;width:100%;box-sizing:border-box}
ul{list-style:none;padding:0}li{margin:.25rem 0}.error{color:#b00020}.hidden{display:none}`;

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

const SCRIPT = `
const M = JSON.parse(document.getElementById('model').textContent);
const $ = (id) => document.getElementById(id);
const finish = (params) => { const u = M.finish + (M.finish.includes('?') ? '&' : '?') + new URLSearchParams(params).toString(); window.location.assign(u); };
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
    return window.location.assign(r.body.oauth_url);
  }
  $('form-title').textContent = 'Connect ' + p.name;
  $('username-row').classList.toggle('hidden', p.auth_type !== 'password');
  $('password-row').classList.toggle('hidden', p.auth_type !== 'password');
  $('email-row').classList.toggle('hidden', p.auth_type !== 'email');
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
$('close').onclick = () => finish({ state: 'error', error_type: 'user_cancelled', error: 'The user cancelled the connection.' });
if (M.open) { const p = M.providers.find((x) => x.slug === M.open); if (p) open(p); }
`;

export function widgetPage(model: WidgetModel): string {
  return page(
    'Connect a device',
    `<h1>Connect a device</h1><p class="error" id="error" role="alert"></p>
<section id="list"><ul id="providers"></ul><button id="close" type="button">Close</button></section>
<section id="form" class="hidden"><h2 id="form-title"></h2>
<label id="username-row">Username <input id="username" autocomplete="username"></label>
<label id="password-row">Password <input id="password" type="password" autocomplete="current-password"></label>
<label id="email-row">E-mail <input id="email" type="email"></label>
<button id="connect" type="button">Connect</button><button id="back" type="button">Back</button></section>
<section id="mfa" class="hidden"><p id="mfa-hint"></p><input id="mfa-code" inputmode="numeric"><button id="submit-mfa" type="button">Submit code</button></section>
<script type="application/json" id="model">${scriptJson(model)}</script><script>${SCRIPT}</script>`,
  );
}

export function consentPage(view: ConsentView): string {
  return page(
    `Authorize ${view.name}`,
    `<h1>${escapeHtml(view.name)} (sandbox)</h1><p>Allow the team's app to read this ${escapeHtml(view.name)} account's health data?</p>
<form method="post" action="${escapeHtml(view.allow)}"><input type="hidden" name="scopes_shown" value="1">${view.scopes.length > 0 ? `<fieldset id="scopes"><legend>Share</legend>${view.scopes.map((s) => `<label><input type="checkbox" name="scope" value="${escapeHtml(s.scope)}" checked> ${escapeHtml(s.scope)}${s.required ? ' (required by the app)' : ''}</label><br>`).join('')}</fieldset>` : ''}<button id="allow" type="submit">Allow</button></form>
<form method="post" action="${escapeHtml(view.deny)}"><button id="deny" type="submit">Deny</button></form>`,
  );
}

export function messagePage(title: string, text: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p id="message">${escapeHtml(text)}</p>`);
}
