/**
 * The management area (issue 5): org, teams, management keys, team API keys, custom
 * credentials, lab accounts (closed beta), the data-side team read, and its control-plane routes.
 */
import type { Area } from '../../engine/area.js';
import { customCredentialRoutes } from './custom-credentials.js';
import { labAccountRoutes } from './lab-accounts.js';
import { managementControlRoutes } from './control.js';
import { managementKeyRoutes } from './keys.js';
import { managementOrgRoutes } from './org.js';
import { managementTeamRoutes } from './teams.js';
import { teamApiKeyRoutes } from './team-api-keys.js';
import { teamRoutes } from './team.js';
import { memberRoutes } from './members.js';
import { domainRoutes } from './domains.js';
import { teamSettingRoutes } from './team-settings.js';
import { dataPullPreferenceRoutes } from './data-pull-preferences.js';
import { preferencesOf } from '../../state/management/preferences.js';
import { ehrIntegrationRoutes } from './ehr.js';
import { ehrPipelineRoutes } from './ehr-pipelines.js';
import { ehrControlRoutes } from './ehr-control.js';
import { continuousQueryRoutes } from './continuous-queries.js';
import { dropContinuousQueries } from '../../state/management/continuous-queries.js';
import { dropEhrTeam } from '../../state/management/ehr.js';
import { dropEhrPipelines, ehrListens, onEhrEvent } from '../../state/management/ehr-pipelines.js';
import { dropTeamBindings } from '../../state/management/people.js';
import { customCredentialsOf } from '../../state/management/custom-credentials.js';
import { labAccountsOf, seedLabAccounts } from '../../state/management/lab-accounts.js';

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
    ...memberRoutes,
    ...domainRoutes,
    ...teamSettingRoutes,
    ...dataPullPreferenceRoutes,
    ...ehrIntegrationRoutes,
    ...ehrPipelineRoutes,
    ...ehrControlRoutes,
    ...continuousQueryRoutes,
  ],
  install(world) {
    world.tenancy.teamDeleted.add((team) => {
      customCredentialsOf(world).dropTeam(team);
      labAccountsOf(world).dropTeam(team);
      dropTeamBindings(world, team.org_id, team.id);
      preferencesOf(world).dropTeam(team.id);
      dropEhrTeam(world, team.org_id, team.id);
      dropEhrPipelines(world, team.id);
      dropContinuousQueries(world, team.id);
    });
    world.events.subscribe((entry, partition) => onEhrEvent({ world, partition }, entry));
    world.events.watch((partition, prefix) => ehrListens({ world, partition }, prefix));
  },
  seed(world) {
    for (const org of world.tenancy.orgs.values()) seedLabAccounts(world, org);
  },
};
