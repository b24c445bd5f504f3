/**
 * The provider catalogue as the routes see it (api-facts C): the request enums of provider slugs
 * (every provider, the demo ones) and `GET /v2/providers`' list (ClientFacingProviderDetailed),
 * built once from the provider fixtures.
 */
import type { z } from 'zod';
import { DEMO_PROVIDERS, PROVIDERS, PROVIDER_SLUGS } from '../../fixtures/wearables/providers.js';
import type { Provider } from '../../wire/schemas.js';

/** Every provider slug the sandbox knows (the reference's `Providers` enum), as a zod enum takes it. */
export const PROVIDER_SLUG_ENUM = PROVIDER_SLUGS as [string, ...string[]];

/** The providers `POST /v2/link/connect/demo` connects. */
export const DEMO_PROVIDER_ENUM = DEMO_PROVIDERS;

/** The reference's `SourceType` values `GET /v2/providers` filters by. */
export const SOURCE_TYPES = ['app', 'ble', 'device', 'lab', 'provider'] as const;

const CATALOGUE = PROVIDERS.map((p) => ({
  provider: {
    name: p.name,
    slug: p.slug,
    description: p.description,
    logo: p.logo,
    auth_type: p.auth_type,
    supported_resources: [...p.resources],
  } satisfies z.input<typeof Provider>,
  kind: p.kind,
}));

/** `GET /v2/providers`: the catalogue, only the providers of `sourceType` when given. */
export function providerCatalogue(sourceType: (typeof SOURCE_TYPES)[number] | null | undefined): z.input<typeof Provider>[] {
  return CATALOGUE.filter((p) => !sourceType || p.kind === sourceType).map((p) => p.provider);
}
