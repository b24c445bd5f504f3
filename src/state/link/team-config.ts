/** The Link configuration a widget reads for its team (`GET /v2/team/link/config`). */
import { PROVIDERS } from '../../fixtures/wearables/providers.js';
import type { TeamScope } from './connect.js';
import { tokenProviders } from './connect.js';
import { linkTokensOf } from './tokens.js';
import { linkError } from './errors.js';

const WEB_AUTH = new Set(['oauth', 'team_oauth', 'password', 'email']);

/** The team's name, logo, duplicate-connection rule and the providers a widget shows (narrowed by a link token). */
export function linkConfig(scope: TeamScope, linkToken: string | undefined): Record<string, unknown> {
  let providers = PROVIDERS.filter((p) => WEB_AUTH.has(p.auth_type));
  if (linkToken !== undefined) {
    const token = linkTokensOf(scope.world).byToken.get(linkToken);
    if (!token || token.team_id !== scope.partition.team.id || token.environment !== scope.partition.environment) throw linkError.token('invalid_token');
    providers = tokenProviders(token);
  }
  const { team, environment } = scope.partition;
  const settings = team.settings[environment];
  return {
    team_id: team.id,
    name: team.name,
    logo_url: settings.logo_url,
    reject_duplicate_connection: settings.reject_duplicate_connection,
    providers: providers.map((p) => ({ name: p.name, slug: p.slug, logo: p.logo, auth_type: p.auth_type })),
  };
}
