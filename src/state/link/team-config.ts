/**
 * The Link configuration a widget reads for its team (`GET /v2/team/link/config`): the SDK
 * sends only the link token, so the token names the team environment.
 */
import type { z } from 'zod';
import type { World } from '../../engine/world.js';
import type { LinkConfig } from '../../wire/schemas.js';
import { tokenProviders } from './connect.js';
import { usableToken } from './tokens.js';

/** The team's name, logo, duplicate-connection rule and the providers the token's widget shows. */
export function linkConfig(world: World, linkToken: string | undefined): z.input<typeof LinkConfig> {
  const { token, partition } = usableToken(world, linkToken);
  const { team, environment } = partition;
  const settings = team.settings[environment];
  return {
    team_id: team.id,
    name: team.name,
    logo_url: settings.logo_url,
    reject_duplicate_connection: settings.reject_duplicate_connection,
    providers: tokenProviders(token).map((p) => ({ name: p.name, slug: p.slug, logo: p.logo, auth_type: p.auth_type })),
  };
}
