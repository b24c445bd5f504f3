/**
 * Lab accounts of an org (management OpenAPI `ClientFacingLabAccount`; a closed-beta feature,
 * `lab_accounts`). Each org has, per environment, a Quest and a Labcorp account in the `us`
 * region; which teams may use an account is its `team_id_allowlist`. Derived from the seed and
 * the org id; the allowlist starts with the org's teams in the region when the accounts are made.
 */
import type { z } from 'zod';
import type { Domain } from '../domain-context.js';
import type * as W from '../../wire/schemas.js';
import { stableInt, stableUuid } from '../../engine/ids.js';
import { ENVIRONMENTS, type Environment, type Org, type Region, type Team } from '../../engine/tenancy.js';
import type { OrgDomain } from '../domain-context.js';
import { requireOrgAdmin, requireTeam } from './access.js';
import { worldSlot, type World } from '../../engine/world.js';
import { assertBeta, closedBetaError } from '../../engine/beta.js';
import type { ValidationItem } from '../../engine/errors.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from '../labs/errors.js';
import { managementError } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

type LabAccountStatus = 'active' | 'pending' | 'suspended' | 'ready_to_launch';

interface LabAccount {
  id: string;
  lab: string;
  org_id: string;
  environment: Environment;
  region: Region;
  status: LabAccountStatus;
  delegated_flow: 'order_delegated' | 'result_delegated' | 'fully_delegated' | 'not_delegated';
  provider_account_id: string;
  account_name: string;
  allowed_billing: Record<string, string[]>;
  team_id_allowlist: string[];
}

export const LAB_ACCOUNT_FEATURE = 'lab_accounts';

const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
];
/** States where direct-to-consumer lab testing is restricted. */
const RESTRICTED = new Set(['NY', 'NJ', 'RI']);

const LAB_ACCOUNT_TEMPLATES: ReadonlyArray<{ lab: string; label: string; region: Region }> = [
  { lab: 'quest', label: 'Quest Diagnostics', region: 'us' },
  { lab: 'labcorp', label: 'Labcorp', region: 'us' },
];

class LabAccountStore {
  private readonly byId = new Map<string, LabAccount>();

  get(id: string): LabAccount | undefined {
    return this.byId.get(id);
  }
  /** `org:env:region` -> account ids. */
  private readonly byScope = new Map<string, string[]>();

  add(a: LabAccount): void {
    this.byId.set(a.id, a);
    const key = `${a.org_id}:${a.environment}:${a.region}`;
    const list = this.byScope.get(key);
    if (list) list.push(a.id);
    else this.byScope.set(key, [a.id]);
  }

  of(orgId: string, environment: Environment, region: Region): LabAccount[] {
    return (this.byScope.get(`${orgId}:${environment}:${region}`) ?? []).flatMap((id) => {
      const a = this.byId.get(id);
      return a ? [a] : [];
    });
  }

  dropTeam(team: Team): void {
    for (const env of ENVIRONMENTS) {
      for (const a of this.of(team.org_id, env, team.region)) a.team_id_allowlist = a.team_id_allowlist.filter((id) => id !== team.id);
    }
  }
}
dataClass('LabAccountStore', LabAccountStore);

export const labAccountsOf = worldSlot('lab-accounts', () => new LabAccountStore());

/** Makes an org's lab accounts (at seeding, or when the control plane creates an org). */
export function seedLabAccounts(world: World, org: Org): void {
  const store = labAccountsOf(world);
  for (const env of ENVIRONMENTS) {
    for (const t of LAB_ACCOUNT_TEMPLATES) {
      const allowlist = world.tenancy.orgTeamsInRegion(org.id, t.region).map((team) => team.id);
      store.add({
        id: stableUuid(world.seed, 'lab-account', org.id, env, t.region, t.lab),
        lab: t.lab,
        org_id: org.id,
        environment: env,
        region: t.region,
        status: 'active',
        delegated_flow: 'not_delegated',
        provider_account_id: String(10_000_000 + (stableInt(world.seed, 'lab-account-number', org.id, env, t.lab) % 90_000_000)),
        account_name: `${t.label} ${env} account`,
        allowed_billing: { client_bill: US_STATES.filter((s) => !RESTRICTED.has(s)) },
        team_id_allowlist: allowlist,
      });
    }
  }
}

/** `ClientFacingLabAccount`. */
export function labAccountView(a: LabAccount): z.input<typeof W.LabAccount> {
  return {
    id: a.id,
    lab: a.lab,
    org_id: a.org_id,
    status: a.status,
    delegated_flow: a.delegated_flow,
    provider_account_id: a.provider_account_id,
    account_name: a.account_name,
    default_clinical_notes: null,
    business_units: null,
    allowed_billing: Object.fromEntries(Object.entries(a.allowed_billing).map(([k, v]) => [k, [...v]])),
    team_id_allowlist: [...a.team_id_allowlist],
  };
}

/** Passes when at least one live team of the org in the region is enabled for the lab accounts beta. */
function assertOrgLabAccountBeta(world: World, org: Org, region: Region): void {
  const teams = world.tenancy.orgTeamsInRegion(org.id, region);
  if (!teams.some((t) => t.beta_features.has(LAB_ACCOUNT_FEATURE))) throw closedBetaError(LAB_ACCOUNT_FEATURE);
}

/**
 * Replaces a lab account's team allowlist (the caller checked for an org key): the account is
 * the org's in this environment and region (404), every team is a team of the org in the region
 * (one 422 naming each bad one), the teams (or, for an empty list, some team of the org in the
 * region) have the beta (403); then the one change.
 */
export function updateLabAccountAllowlist(
  world: World,
  org: Org,
  env: Environment,
  region: Region,
  accountId: string,
  allowlist: readonly string[],
): LabAccount {
  const account = labAccountsOf(world).get(accountId);
  if (!account || account.org_id !== org.id || account.environment !== env || account.region !== region) {
    throw labsError.notFound(LABS_ERRORS.labAccountNotFound);
  }
  const ids = [...new Set(allowlist)];
  const items: ValidationItem[] = [];
  const teams = ids.flatMap((id) => {
    const team = world.tenancy.teams.get(id);
    if (team && team.org_id === org.id && team.region === region) return [team];
    const message = LABS_TEXTS.teamNotInOrgRegion(id, region);
    items.push({
      type: 'value_error',
      loc: ['body', 'team_id_allowlist', allowlist.indexOf(id)],
      msg: `Value error, ${message}`,
      input: id,
      ctx: { error: message },
    });
    return [];
  });
  if (items.length > 0) throw managementError.invalidItems(items);
  if (teams.length > 0) for (const team of teams) assertBeta(team, LAB_ACCOUNT_FEATURE);
  else assertOrgLabAccountBeta(world, org, region);
  account.team_id_allowlist = ids;
  return account;
}

interface LabAccountFilter {
  lab_account_id?: string | null | undefined;
  team_id?: string | null | undefined;
  status?: LabAccount['status'] | null | undefined;
}

function filtered(world: World, orgId: string, env: Environment, region: Region, q: LabAccountFilter): LabAccount[] {
  return labAccountsOf(world)
    .of(orgId, env, region)
    .filter(
      (a) =>
        (!q.lab_account_id || a.id === q.lab_account_id) &&
        (!q.team_id || a.team_id_allowlist.includes(q.team_id)) &&
        (!q.status || a.status === q.status),
    );
}

/**
 * `GET /v1/org/:org_id/lab_account/:env/:region`: with `team_id`, the team's access and its beta;
 * without, an org key and the org's beta; then the org's accounts, filtered.
 */
export function listOrgLabAccounts(ctx: OrgDomain, orgId: string, env: Environment, region: Region, q: LabAccountFilter): LabAccount[] {
  let org: Org;
  if (q.team_id) {
    const team = requireTeam(ctx, orgId, q.team_id);
    org = ctx.management.org;
    assertBeta(team, LAB_ACCOUNT_FEATURE);
  } else {
    org = requireOrgAdmin(ctx, orgId);
    assertOrgLabAccountBeta(ctx.world, org, region);
  }
  return filtered(ctx.world, org.id, env, region, q);
}

/** `GET /v3/lab_test/lab_account`: the accounts of the caller's org whose allowlist holds the calling team. */
export function listTeamLabAccounts(d: Domain, q: LabAccountFilter): LabAccount[] {
  const { world, partition } = d;
  const { team, environment } = partition;
  return filtered(world, team.org_id, environment, team.region, { ...q, team_id: team.id });
}
