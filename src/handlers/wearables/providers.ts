/**
 * Provider catalogue (api-facts C): `GET /v2/providers` lists every provider the sandbox knows
 * (the reference's `Providers` enum) with name, slug, description, logo, auth type and
 * supported resources; `source_type` filters by the reference's `SourceType`.
 *
 * LIMITATIONS
 * - `GET /v2/link/providers` (link-token surface) is not simulated.
 * - Logos follow `https://storage.googleapis.com/vital-assets/<file>.png`; only the reference's
 *   known file names are certain, the others use the slug. Descriptions are the sandbox's own.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { SOURCE_TYPES, providerCatalogue } from '../../state/wearables/catalogue.js';
import { Provider, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const providerRoutes = [
  defineRoute({
    id: 'providers.list',
    method: 'GET',
    path: '/v2/providers',
    auth: 'team',
    summary: 'The provider catalogue (ClientFacingProviderDetailed), optionally filtered by source_type.',
    request: { query: lazySchema(() => z.object({ source_type: z.enum(SOURCE_TYPES).nullish() })) },
    responses: {
      200: res(
        lazySchema(() => z.array(Provider)),
        'Array of providers',
      ),
      422: 'Unknown source_type',
    },
    handle: (_ctx, { query }) => reply(200, providerCatalogue(query.source_type)),
  }),
];
