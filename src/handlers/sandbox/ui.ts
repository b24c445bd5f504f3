/**
 * The inspector (`GET /_sandbox/ui`, the control plane's guard): one page served by the sandbox,
 * with no CDN and no network beyond it, that polls the control plane and the team API and shows
 * and steers the sandbox (src/inspector/, bundled into the page). With an admin token,
 * `GET /_sandbox/ui?token=<token>` signs a browser in: an HttpOnly, SameSite=Strict cookie and a
 * redirect to `/_sandbox/ui` (src/engine/control-cookie.ts). `/_sandbox` answers the same
 * pointer page as `/` (where the real API serves nothing).
 */
import { z } from 'zod';
import { controlCookieHeader } from '../../engine/control-cookie.js';
import { binary, type Reply } from '../../engine/http-types.js';
import { lazySchema } from '../../engine/lazy-schema.js';
import { defineRoute } from '../../engine/route.js';
import { inspectorDocument, pointerPage } from './ui-page.js';

const encoder = new TextEncoder();
let page: { html: Uint8Array; csp: string } | undefined;
const HTML = 'text/html; charset=utf-8';

export const uiRoutes = [
  defineRoute({
    id: 'sandbox.ui',
    method: 'GET',
    path: '/_sandbox/ui',
    auth: 'control',
    summary:
      'The inspector: requests, teams and keys, users, lab orders, webhooks, events, faults, snapshots and the clock, in one page. ?token=<admin token> signs a browser in (cookie) and redirects here.',
    request: {
      query: lazySchema(() =>
        z.object({
          token: z
            .string()
            .min(1)
            .optional()
            .describe('The admin token: sets the sign-in cookie (HttpOnly, SameSite=Strict) and redirects to /_sandbox/ui'),
        }),
      ),
    },
    responses: {
      200: { description: 'HTML page', contentType: 'text/html' },
      303: 'Signed in (?token=): the cookie is set, to /_sandbox/ui',
    },
    handle: (ctx, { query }): Reply => {
      if (query.token !== undefined) {
        // Only the admin token signs in (a request let through by the cookie with another token gets none).
        const headers: Record<string, string> = { location: '/_sandbox/ui', 'cache-control': 'no-store' };
        if (ctx.isAdminToken(query.token)) headers['set-cookie'] = controlCookieHeader(query.token);
        return { status: 303, headers };
      }
      if (!page) {
        const doc = inspectorDocument();
        page = { html: encoder.encode(doc.html), csp: doc.csp };
      }
      return binary(page.html, HTML, { 'cache-control': 'no-store', 'content-security-policy': page.csp, 'x-frame-options': 'DENY' });
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
