/**
 * The inspector page (`/_sandbox/ui`): one HTML document with its CSS inline and its script, the
 * bundled src/inspector/ (ui-app.ts), inline too, so it needs nothing but the sandbox: no CDN, no
 * other network. Its Content-Security-Policy allows that one script (by its hash) and nothing
 * from elsewhere. And the small pointer page served at `/` and `/_sandbox`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { inspectorScript } from './ui-app.js';

const NOT_BUILT =
  "<p>The inspector's script is not built into this copy of health-sandbox: run <code>npm run build</code> (<code>npm run dev</code> serves src/ as it is).</p>";

/** The policy: the page's one inline script (by hash), its inline style, requests to the sandbox only. */
function csp(script: string): string {
  let binary = '';
  for (const b of sha256(new TextEncoder().encode(script))) binary += String.fromCharCode(b);
  return `default-src 'none'; script-src 'sha256-${btoa(binary)}'; style-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data: blob:; frame-src blob:; base-uri 'none'; form-action 'none'`;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d232a; --bg: #fbfbfa; --muted: #5d6670; --line: #d9dde1; --accent: #0b5cad; --ok: #1d7a3a; --warn: #9a5b00; --bad: #b3261e; --panel: #f1f3f5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e8ea; --bg: #15181b; --muted: #a0a8b0; --line: #343a40; --accent: #7ab4f5; --ok: #6fcf8a; --warn: #f0b35a; --bad: #f28b82; --panel: #1f2327; } }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; padding: 10px 20px; border-bottom: 1px solid var(--line); background: var(--panel); }
header h1 { font-size: 16px; margin: 0; }
#clock { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
nav ul { list-style: none; display: flex; gap: 4px; margin: 0; padding: 8px 20px; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
nav a { display: inline-block; padding: 6px 12px; border-radius: 6px; color: var(--fg); text-decoration: none; }
nav a[aria-current=page] { background: var(--accent); color: var(--bg); }
main { padding: 16px 20px 40px; max-width: 1400px; }
h2 { font-size: 18px; margin: 0 0 10px; } h3 { font-size: 15px; margin: 18px 0 6px; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, pre:focus-visible, summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
caption { text-align: left; font-weight: 600; padding: 6px 0; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.empty { color: var(--muted); font-style: italic; }
code, pre { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--panel); padding: 8px 10px; border-radius: 6px; overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-all; }
button { font: inherit; padding: 4px 10px; border-radius: 6px; border: 1px solid var(--line); background: var(--bg); color: var(--fg); cursor: pointer; }
button.small { padding: 1px 8px; font-size: 12px; }
button:disabled { opacity: .5; }
input, select { font: inherit; padding: 3px 6px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); }
.filters { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; margin: 8px 0; }
.status { font-weight: 600; } .s2 { color: var(--ok); } .s4 { color: var(--warn); } .s5 { color: var(--bad); }
.error-row td { background: color-mix(in srgb, var(--bad) 7%, transparent); }
.note { color: var(--muted); margin: 0 0 8px; }
.near { border-left: 4px solid var(--warn); padding: 4px 12px; margin: 12px 0; background: var(--panel); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 10px 0; } .facts dt { color: var(--muted); } .facts dd { margin: 0; }
.timeline { border-left: 2px solid var(--line); margin: 0; padding-left: 18px; } .timeline li { margin: 4px 0; }
.timeline time { color: var(--muted); }
.ecg { color: var(--bad); background: var(--panel); border-radius: 6px; max-width: 900px; display: block; }
figure { margin: 0; } figcaption { margin: 6px 0; }
#error { background: var(--bad); color: var(--bg); padding: 8px 20px; margin: 0; }
.pager { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.actions { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
label.block { display: block; margin: 4px 0; }
textarea { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; padding: 6px; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); max-width: 100%; }
.timeline .kind { display: inline-block; min-width: 6em; color: var(--muted); font-size: 12px; text-transform: uppercase; }
.found { color: var(--muted); }
td time { white-space: nowrap; }
td code { word-break: break-all; }
#clock form { margin: 0; }
.skip { position: absolute; left: -9999px; } .skip:focus { left: 8px; top: 8px; background: var(--bg); padding: 6px; z-index: 2; }
`;

/** The inspector document and its Content-Security-Policy. */
export function inspectorDocument(): { html: string; csp: string } {
  const script = inspectorScript();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>health-sandbox inspector</title>
<style>${STYLE}</style>
</head>
<body>
<a class="skip" href="#view">Skip to content</a>
<header>
<h1>health-sandbox inspector</h1>
<div id="clock" role="group" aria-label="Sandbox clock"></div>
<div id="team"></div>
<a href="/docs">API documentation</a>
</header>
<nav id="tabs" aria-label="Views"></nav>
<p id="error" role="alert" hidden></p>
<main id="view" tabindex="-1" aria-live="polite">${script === undefined ? NOT_BUILT : '<p>Loading&hellip;</p>'}</main>
${script === undefined ? '' : `<script>${script}</script>`}
</body>
</html>
`;
  return { html, csp: csp(script ?? '') };
}

/** What `/` and `/_sandbox` answer: where the inspector, the documentation and the documents are. */
export function pointerPage(base: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>health-sandbox</title></head>
<body style="font: 15px/1.5 system-ui, sans-serif; margin: 40px">
<h1>health-sandbox</h1>
<p>A simulator of the health-data and lab-testing API. The API itself is at <code>${esc(base)}</code> (for example <code>GET /v2/user</code> with your sandbox API key).</p>
<ul>
<li><a href="/_sandbox/ui">The inspector</a>: requests, users, lab orders, webhooks, events and the clock.</li>
<li><a href="/docs">The API documentation</a> (Swagger UI, "try it" against this sandbox).</li>
<li><a href="/_sandbox/credentials">Credentials</a> (JSON), <a href="/openapi.json">the OpenAPI document</a>.</li>
</ul>
</body>
</html>
`;
}
