/**
 * The sandbox's Link widget (api-facts I): the page at the `link_web_url` a link token answers
 * (provider list, password / e-mail forms with the MFA step, OAuth through the consent page),
 * the OAuth consent page with Allow and Deny, and a done page for tokens without a
 * redirect_url. Pages are self-contained HTML: no external assets. Errors are JSON like every
 * other answer (an unusable token with a redirect_url redirects there with the error).
 *
 * LIMITATIONS
 * - The real widget lives at https://link.tryvital.io; the sandbox serves its own at
 *   `<base>/link`. Its look is the sandbox's own.
 * - The consent page lists the provider's scopes, all checked; Allow grants the checked ones
 *   (a form body with `scopes_shown` and repeated `scope`; a decision without it grants all).
 * - Opened by the launcher (`opener=<origin>`, `launcher.ts`), every page carries the opener on,
 *   flows end on the done page instead of the redirect_url, and the done page (or the widget
 *   page of an unusable token) reports the outcome to the opener with `postMessage`.
 */
import { z } from 'zod';
import { binary, type Reply } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { decideOAuth } from '../../state/link/connect.js';
import { linkError } from '../../state/link/errors.js';
import { consentView, widgetView } from '../../state/link/widget.js';
import { consentPage, messagePage, reportingPage, widgetPage } from './pages.js';
import { lazySchema } from '../../engine/lazy-schema.js';

/** The origin of the page that opened the widget through the launcher (`scheme://host[:port]`). */
const origin = lazySchema(() => z.string().regex(/^https?:\/\/[^/?#\s]+$/, 'an origin: scheme://host[:port]'));

const encoder = new TextEncoder();
const html = (text: string, status = 200): Reply => ({
  ...binary(encoder.encode(text), 'text/html; charset=utf-8', { 'cache-control': 'no-store' }),
  status,
});
const redirect = (location: string, status = 303): Reply => ({ status, headers: { location } });

/** The scopes a consent form granted (its urlencoded body), or null (every scope) without the form's marker. */
function grantedScopes(body: string | undefined): string[] | null {
  if (body === undefined) return null;
  const form = new URLSearchParams(body);
  return form.has('scopes_shown') ? form.getAll('scope') : null;
}

const DONE_TITLES = { success: 'Connected', error: 'Not connected' } as const;

export const linkWidgetRoutes = [
  defineRoute({
    id: 'link.widget',
    method: 'GET',
    path: '/link',
    auth: 'none',
    summary: 'The Link widget page of a link token (link_web_url).',
    request: {
      query: lazySchema(() =>
        z.object({
          token: z.string().min(1),
          env: z.string().nullish(),
          region: z.string().nullish(),
          provider: z.string().nullish(),
          opener: origin.nullish(),
        }),
      ),
    },
    responses: {
      200: { description: 'HTML page (opened by the launcher: also for an unusable token, which it reports)', contentType: 'text/html' },
      307: 'Unusable token: to its redirect_url with the error',
      400: 'Unusable token (JSON, like every error)',
    },
    handle(ctx, { query }) {
      const opener = query.opener ?? null;
      const view = widgetView(ctx.world, query.token, { provider: query.provider ?? null, opener, env: query.env ?? null });
      if (view.ok) return html(widgetPage(view.model));
      if (opener !== null) {
        const metadata = { state: 'error', error_type: view.error, error: view.text };
        return html(reportingPage(DONE_TITLES.error, view.text, opener, 'error', metadata));
      }
      if (view.redirect) return redirect(view.redirect, 307);
      throw linkError.token(view.error);
    },
  }),
  defineRoute({
    id: 'link.oauth_authorize',
    method: 'GET',
    path: '/link/oauth/authorize',
    auth: 'none',
    summary: "The simulated provider's OAuth consent page (Allow / Deny).",
    request: { query: lazySchema(() => z.object({ provider: z.string().min(1), state: z.string().min(1), opener: origin.nullish() })) },
    responses: { 200: { description: 'HTML page', contentType: 'text/html' }, 404: 'Unknown OAuth session' },
    handle(ctx, { query }) {
      return html(consentPage(consentView(ctx.world, query.state, query.provider, query.opener ?? null)));
    },
  }),
  defineRoute({
    id: 'link.oauth_decide',
    method: 'POST',
    path: '/link/oauth/decide',
    auth: 'none',
    summary: "The consent decision: Allow connects, Deny cancels; redirects to the token's redirect_url.",
    request: {
      query: lazySchema(() =>
        z.object({
          provider: z.string().min(1),
          state: z.string().min(1),
          decision: z.enum(['allow', 'deny']),
          opener: origin.nullish(),
        }),
      ),
      body: lazySchema(() => z.string().optional()),
    },
    responses: { 303: 'To the redirect_url (launched: the done page) with state=success or state=error&error_type=...&error=...' },
    handle: (ctx, { query, body }) =>
      redirect(decideOAuth(ctx.world, query.state, query.provider, query.decision === 'allow', grantedScopes(body), query.opener ?? null)),
  }),
  defineRoute({
    id: 'link.done',
    method: 'GET',
    path: '/link/done',
    auth: 'none',
    summary: 'Where a flow ends when its token has no redirect_url.',
    request: {
      query: lazySchema(() =>
        z.object({
          state: z.enum(['success', 'error']),
          error_type: z.string().nullish(),
          error: z.string().nullish(),
          opener: origin.nullish(),
        }),
      ),
    },
    responses: { 200: { description: 'HTML page (launched: reports the outcome to the launcher)', contentType: 'text/html' } },
    handle: (_ctx, { query }) => {
      const title = DONE_TITLES[query.state];
      const text =
        query.state === 'success' ? 'The provider is connected. You can close this page.' : (query.error ?? query.error_type ?? '');
      if (!query.opener) return html(messagePage(title, text));
      const metadata: Record<string, string> =
        query.state === 'success' ? { state: 'success' } : { state: 'error', error_type: query.error_type ?? '', error: query.error ?? '' };
      return html(reportingPage(title, text, query.opener, query.state, metadata));
    },
  }),
];
