/**
 * The documentation page: `GET /docs` renders the sandbox's OpenAPI documents (data, management,
 * control plane) with Swagger UI, whose "try it" calls the sandbox itself (the documents' servers
 * are the sandbox's URLs). The page is built here; Swagger UI's files come from the
 * `swagger-ui-dist` package (an optional peer: 12 MB, installed only by those who want the page)
 * through `world.assets.docs`, which the Node adapters (express, the CLI's node:http server) set
 * and read lazily. Without the package, under msw or in a browser there is no reader:
 * `/docs/assets/*` answers 404 saying so, and the page names the package and links the documents.
 * The page's selector lists each document by area first (`/openapi.json?area=users`, ...: Swagger
 * UI parses a 450 KB document in 6 to 7 s, one area's in well under a second), then each whole
 * document; `?doc=` and `?area=` choose the one shown first (DECISIONS.md, 2026-11-29).
 */
import { SANDBOX_ERRORS, sandboxError } from '../../state/sandbox/errors.js';
import { z } from 'zod';
import { docsAsset } from '../../state/sandbox/docs-assets.js';
import { binary } from '../../engine/http-types.js';
import { defineRoute, type Route } from '../../engine/route.js';
import { lazySchema } from '../../engine/lazy-schema.js';
import { documentAreas } from '../../wire/openapi.js';

const encoder = new TextEncoder();

/** What the page says when Swagger UI's files are not there (swagger-ui-dist is an optional peer). */
const MISSING =
  '<p><strong>Swagger UI is not installed</strong>: its files come from the optional <code>swagger-ui-dist</code> package (<code>npm install --save-dev swagger-ui-dist</code>). The documents above are complete without it.</p>';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The documents the page offers, in its selector's order; `?doc=` names the one shown first. */
const DOCUMENTS = { data: 'Data interface', management: 'Management interface', control: 'Control plane (/_sandbox)' } as const;
type DocumentKind = keyof typeof DOCUMENTS;

/** What the page lists: every document by area, then each whole document, and the one shown first. */
function pageDocuments(
  routes: readonly Route[],
  base: string,
  management: string,
  doc: DocumentKind | undefined,
  area: string | undefined,
) {
  const whole: Record<DocumentKind, string> = {
    data: `${base}/openapi.json`,
    management: `${management}/openapi.json`,
    control: `${base}/_sandbox/openapi.json`,
  };
  const kinds = Object.keys(DOCUMENTS) as DocumentKind[];
  const areaDocs = kinds.flatMap((kind) =>
    documentAreas(routes, kind).map((a) => ({
      kind,
      area: a,
      url: `${whole[kind]}?area=${encodeURIComponent(a)}`,
      name: `${DOCUMENTS[kind]}: ${a}`,
    })),
  );
  const all = kinds.map((kind) => ({ kind, area: undefined, url: whole[kind], name: `${DOCUMENTS[kind]}, all areas` }));
  const first =
    area === undefined
      ? areaDocs.find((d) => d.kind === (doc ?? 'data'))
      : areaDocs.find((d) => d.area === area && (doc === undefined || d.kind === doc));
  if (!first) {
    const areas = areaDocs.filter((d) => doc === undefined || d.kind === doc).map((d) => d.area);
    throw sandboxError.unknownArea(SANDBOX_ERRORS.unknownArea([...new Set(areas)]), area);
  }
  return { urls: [...areaDocs, ...all].map(({ url, name }) => ({ url, name })), first: first.name, links: all };
}

function docsPage(base: string, listed: ReturnType<typeof pageDocuments>): string {
  const { urls, first, links } = listed;
  const assets = `${base}/docs/assets`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>health-sandbox API</title>
<link rel="icon" type="image/png" href="${escapeAttr(assets)}/favicon-32x32.png">
<link rel="stylesheet" href="${escapeAttr(assets)}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"><p>Loading the documentation&hellip; The documents themselves: ${links.map((u) => `<a href="${escapeAttr(u.url)}">${u.name}</a>`).join(', ')}.</p></div>
<script src="${escapeAttr(assets)}/swagger-ui-bundle.js"></script>
<script src="${escapeAttr(assets)}/swagger-ui-standalone-preset.js"></script>
<script>
if (typeof SwaggerUIBundle === 'undefined') {
  document.getElementById('swagger-ui').insertAdjacentHTML('beforeend', ${JSON.stringify(MISSING)});
} else window.ui = SwaggerUIBundle({
  urls: ${JSON.stringify(urls).replace(/</g, '\\u003c')},
  'urls.primaryName': ${JSON.stringify(first).replace(/</g, '\\u003c')},
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
</script>
</body>
</html>
`;
}

export const docsRoutes = [
  defineRoute({
    id: 'meta.docs',
    method: 'GET',
    path: '/docs',
    auth: 'none',
    summary: 'The documentation page: the OpenAPI documents rendered with Swagger UI, "try it" against this sandbox.',
    request: {
      query: lazySchema(() =>
        z.object({
          doc: z
            .enum(['data', 'management', 'control'])
            .optional()
            .describe('The document shown first (the others stay one selection away); the data interface when left out.'),
          area: z
            .string()
            .optional()
            .describe("The area of the document shown first (users, labs, ...); the document's first area when left out."),
        }),
      ),
    },
    responses: { 200: { description: 'HTML page', contentType: 'text/html' } },
    handle: (ctx, { query }) =>
      binary(
        encoder.encode(
          docsPage(ctx.world.urls.base, pageDocuments(ctx.routes, ctx.world.urls.base, ctx.world.urls.management, query.doc, query.area)),
        ),
        'text/html; charset=utf-8',
        { 'cache-control': 'no-store' },
      ),
  }),
  defineRoute({
    id: 'meta.docs.asset',
    method: 'GET',
    path: '/docs/assets/:file',
    auth: 'none',
    summary: 'A file of the documentation page (Swagger UI, from the swagger-ui-dist package).',
    request: { params: lazySchema(() => z.object({ file: z.string() })) },
    responses: {
      200: { description: 'The file (CSS, JavaScript or PNG)', contentType: '*/*' },
      404: 'Unknown file, or no documentation assets in this runtime (msw, browser)',
    },
    async handle(ctx, { params }) {
      const { bytes, type } = await docsAsset(ctx.world, params.file);
      return binary(bytes, type, { 'cache-control': 'public, max-age=3600' });
    },
  }),
];
