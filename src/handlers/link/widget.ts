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
 */
import { z } from 'zod';
import { binary, type Reply } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { decideOAuth } from '../../state/link/connect.js';
import { linkError } from '../../state/link/errors.js';
import { consentView, widgetView } from '../../state/link/widget.js';
import { consentPage, messagePage, widgetPage } from './pages.js';

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
      query: z.object({
        token: z.string().min(1),
        env: z.string().nullish(),
        region: z.string().nullish(),
        provider: z.string().nullish(),
      }),
    },
    responses: {
      200: { description: 'HTML page', contentType: 'text/html' },
      307: 'Unusable token: to its redirect_url with the error',
      400: 'Unusable token (JSON, like every error)',
    },
    handle(ctx, { query }) {
      const view = widgetView(ctx.world, query.token, query.provider ?? null);
      if (view.ok) return html(widgetPage(view.model));
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
    request: { query: z.object({ provider: z.string().min(1), state: z.string().min(1) }) },
    responses: { 200: { description: 'HTML page', contentType: 'text/html' }, 404: 'Unknown OAuth session' },
    handle(ctx, { query }) {
      return html(consentPage(consentView(ctx.world, query.state, query.provider)));
    },
  }),
  defineRoute({
    id: 'link.oauth_decide',
    method: 'POST',
    path: '/link/oauth/decide',
    auth: 'none',
    summary: "The consent decision: Allow connects, Deny cancels; redirects to the token's redirect_url.",
    request: {
      query: z.object({ provider: z.string().min(1), state: z.string().min(1), decision: z.enum(['allow', 'deny']) }),
      body: z.string().optional(),
    },
    responses: { 303: 'To the redirect_url with state=success or state=error&error_type=...&error=...' },
    handle: (ctx, { query, body }) =>
      redirect(decideOAuth(ctx.world, query.state, query.provider, query.decision === 'allow', grantedScopes(body))),
  }),
  defineRoute({
    id: 'link.done',
    method: 'GET',
    path: '/link/done',
    auth: 'none',
    summary: 'Where a flow ends when its token has no redirect_url.',
    request: { query: z.object({ state: z.enum(['success', 'error']), error_type: z.string().nullish(), error: z.string().nullish() }) },
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handle: (_ctx, { query }) =>
      html(
        messagePage(
          DONE_TITLES[query.state],
          query.state === 'success' ? 'The provider is connected. You can close this page.' : (query.error ?? query.error_type ?? ''),
        ),
      ),
  }),
];
