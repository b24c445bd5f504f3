/**
 * The Link launcher (issue 31): `GET /link/initialize.js`, a script compatible with
 * `@tryvital/vital-link`'s `window.Vital.create(config).open(token)` (the real one is
 * `https://link.tryvital.io/initialize.js`; point the hook at this one with a dev-server alias,
 * an msw handler or a Playwright route: docs/simulated/link.md), and `POST /link/close`, what the
 * widget's Close button calls before it reports `onExit`: the token's Link session ends.
 *
 * LIMITATIONS
 * - The script is the sandbox's own (see `launcher-script.ts`): an iframe overlay of the sandbox's
 *   widget page, messages and metadata of the sandbox's own design.
 * - The real service has no close endpoint a client can call; the sandbox's widget uses this one.
 */
import { binary, type Reply } from '../../engine/http-types.js';
import { defineRoute, reply, type Ctx } from '../../engine/route.js';
import { closeToken } from '../../state/link/token-info.js';
import { LinkState, res } from '../../wire/schemas.js';
import { launcherScript } from './launcher-script.js';

const encoder = new TextEncoder();
const linkToken = (ctx: Ctx): string | undefined => ctx.request.headers['x-vital-link-token'];

export const linkLauncherRoutes = [
  defineRoute({
    id: 'link.launcher',
    method: 'GET',
    path: '/link/initialize.js',
    auth: 'none',
    summary: "The Link launcher script (window.Vital) for @tryvital/vital-link's useVitalLink, opening this sandbox's widget.",
    request: {},
    responses: { 200: { description: 'JavaScript', contentType: 'application/javascript' } },
    handle: (ctx): Reply =>
      binary(encoder.encode(launcherScript(ctx.world.urls.base)), 'application/javascript; charset=utf-8', { 'cache-control': 'no-store' }),
  }),
  defineRoute({
    id: 'link.close',
    method: 'POST',
    path: '/link/close',
    auth: 'none',
    summary: "The widget's Close: ends the Link session of the token in x-vital-link-token (state closed).",
    request: {},
    responses: { 200: res(LinkState, '{state: "closed", ...}'), 400: 'Unusable token', 422: 'Missing header' },
    handle: (ctx) => reply(200, closeToken(ctx.world, linkToken(ctx))),
  }),
];
