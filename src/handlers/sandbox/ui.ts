/**
 * The inspector (`GET /_sandbox/ui`, the control plane's guard): one page served by the sandbox,
 * with no CDN and no network beyond it, that polls the control plane and the team API and shows
 * requests, teams and keys, users (connections, pulls, ECG, summaries), lab orders (timeline,
 * results, the `test` button), webhooks (messages, attempts, resend, recover), events and the
 * clock. `/_sandbox` answers the same pointer page as `/` (where the real API serves nothing).
 *
 * LIMITATIONS
 * - With an admin token the page needs `Authorization: Bearer` like every control route, which
 *   a browser does not send by itself (use it on loopback without a token, or a header extension).
 * - It lists the first 100 users and orders, the last 200 events and 100 webhook messages.
 */
import { binary } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { inspectorPage, pointerPage, UI_CSP } from './ui-page.js';

const encoder = new TextEncoder();
let page: Uint8Array | undefined;
const HTML = 'text/html; charset=utf-8';

export const uiRoutes = [
  defineRoute({
    id: 'sandbox.ui',
    method: 'GET',
    path: '/_sandbox/ui',
    auth: 'control',
    summary: 'The inspector: requests, teams and keys, users, lab orders, webhooks, events and the clock, in one page.',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handle: () => {
      page ??= encoder.encode(inspectorPage());
      return binary(page, HTML, { 'cache-control': 'no-store', 'content-security-policy': UI_CSP, 'x-frame-options': 'DENY' });
    },
  }),
  defineRoute({
    id: 'sandbox.index',
    method: 'GET',
    path: '/_sandbox',
    auth: 'control',
    summary: 'Points to the inspector (/_sandbox/ui) and the documentation (/docs).',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handle: (ctx) => binary(encoder.encode(pointerPage(ctx.world.urls.base)), HTML, { 'cache-control': 'no-store' }),
  }),
  defineRoute({
    id: 'meta.index',
    method: 'GET',
    path: '/',
    auth: 'none',
    summary: 'Points to the inspector (/_sandbox/ui) and the documentation (/docs); the real API serves nothing here.',
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handle: (ctx) => binary(encoder.encode(pointerPage(ctx.world.urls.base)), HTML, { 'cache-control': 'no-store' }),
  }),
];
