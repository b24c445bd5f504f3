/** The seeded credentials of a world, as `/_sandbox/credentials` and the CLI banner show them. */
import type { World } from './world.js';

export interface Credentials {
  base_url: string;
  management_url: string;
  org_id: string;
  management_key: string;
  teams: Array<{ team_id: string; name: string; region: string; api_keys: { sandbox: string; production: string } }>;
}

export function credentialsOf(world: World): Credentials {
  const org = world.tenancy.orgs.values().next().value;
  if (!org) throw new Error('World has no org');
  let managementKey = '';
  for (const k of world.tenancy.managementKeysById.values()) {
    if (k.org_id === org.id && k.role === 'org_admin') {
      managementKey = k.key;
      break;
    }
  }
  return {
    base_url: world.urls.base,
    management_url: world.urls.management,
    org_id: org.id,
    management_key: managementKey,
    teams: world.tenancy.orgTeams(org.id).map((team) => {
      const keys = world.tenancy.teamApiKeys(team.id);
      return {
        team_id: team.id,
        name: team.name,
        region: team.region,
        api_keys: {
          sandbox: keys.find((k) => k.environment === 'sandbox')?.value ?? '',
          production: keys.find((k) => k.environment === 'production')?.value ?? '',
        },
      };
    }),
  };
}
