/**
 * The management area (issue 5): org, teams, management keys, team API keys, custom
 * credentials, lab accounts (closed beta), the data-side team read, and its control-plane routes.
 */
import type { Area } from './area.js';
import { customCredentialRoutes } from './handlers/custom-credentials.js';
import { labAccountRoutes } from './handlers/lab-accounts.js';
import { managementControlRoutes } from './handlers/management-control.js';
import { managementKeyRoutes } from './handlers/management-keys.js';
import { managementOrgRoutes } from './handlers/management-org.js';
import { managementTeamRoutes } from './handlers/management-teams.js';
import { teamApiKeyRoutes } from './handlers/team-api-keys.js';
import { teamRoutes } from './handlers/team.js';
import { customCredentialsOf } from './state/custom-credentials.js';
import { labAccountsOf, seedLabAccounts } from './state/management-lab-accounts.js';

export const managementArea: Area = {
  name: 'management',
  routes: [
    ...managementOrgRoutes,
    ...managementTeamRoutes,
    ...managementKeyRoutes,
    ...teamApiKeyRoutes,
    ...customCredentialRoutes,
    ...labAccountRoutes,
    ...teamRoutes,
    ...managementControlRoutes,
  ],
  install(world) {
    world.tenancy.teamDeleted.add((team) => {
      customCredentialsOf(world).dropTeam(team);
      labAccountsOf(world).dropTeam(team);
    });
  },
  seed(world) {
    for (const org of world.tenancy.orgs.values()) seedLabAccounts(world, org);
  },
};
