/**
 * The management area's error catalogue (issue 10): every text the management domain functions
 * answer with, as constants the code and the tests import, and the typed errors built from them.
 * Statuses follow the real service where its document names them (404 not found, 409 conflict
 * with the holder's id, 422 validation); rules it is silent about answer 400 with a `detail`.
 */
import type { ValidationItem } from '../../engine/errors.js';
import { domainErrorOf, type DomainError } from '../domain-error.js';

export const MANAGEMENT_ERRORS = {
  orgNotFound: 'Org not found',
  teamNotFound: 'Team not found',
  memberNotFound: 'Member not found',
  inviteNotFound: 'Invite not found',
  domainNotFound: 'Domain not found',
  integrationMemberNotFound: 'Integration managed member not found',
  queryNotFound: 'Continuous query not found',
  ehrConfigurationNotFound: 'EHR integration configuration not found',
  lastOwner: 'An org must keep at least one owner (a member with the org_admin role).',
  bindingsNeedTeamAdmin: 'team_role_bindings are only allowed with the team_admin role.',
  teamAdminNeedsBindings: 'The team_admin role needs at least one team in team_role_bindings.',
  unknownTeam: (teamId: string) => `Team ${teamId} is not a team of this org.`,
  domainTaken: (domain: string) => `Domain ${domain} is already registered for this org.`,
  invalidDomain: 'Domain must be a fully qualified domain name such as example.com (letters, digits, hyphens, dots).',
  invalidEmail: 'value is not a valid email address',
  integrationMemberTaken: (id: string) => `integration_member_id "${id}" is already used in this org.`,
  modalityNotEnabled: (m: string) => `The ${m} modality is not enabled in the EHR integration configuration.`,
  memberRequired: 'Give member_id or integration_member_id.',
  dashboardSessionNotFound: 'Dashboard session not found or expired',
  ehrPipelineNotFound: 'EHR pipeline not found',
  ehrNotConfigured: 'Set up the EHR integration configuration (PUT .../ehr_integration/configuration) first.',
  teamsNotInRegion: (teamId: string, region: string) => `Team ${teamId} is not a team of this org in region ${region}.`,
  historicalDaysLimit: (provider: string, limit: number) => `historical_days_to_pull for ${provider} must be between 0 and ${limit}.`,
  queryArchived: 'This continuous query is archived.',
  platformQueries: 'Platform continuous queries are managed by the service; use query_type=team.',
  querySlugTaken: (slug: string) => `A continuous query with slug "${slug}" already exists in this team environment.`,
  scopeInBothLists: (scope: string) => `Scope ${scope} is already in user_must_grant.`,
  notPremium: (orgId: string, plan: string) => `Org management is available only on the premium plan; org ${orgId} is on the ${plan} plan.`,
  wrongRegion: (teamId: string, region: string, wanted: string) =>
    `Team ${teamId} is in region ${region}, not ${wanted}: use /${region}/ in the path.`,
  integrationTeamTaken: (integrationTeamId: string, teamId: string) =>
    `integration_team_id "${integrationTeamId}" is already used by team ${teamId} in this org.`,
  teamIdTaken: (teamId: string) => `A team with id ${teamId} already exists or existed; team ids are never reused.`,
} as const;

/** The access rules' texts (access.ts). */
export const ACCESS_MESSAGES = {
  wrongOrg: 'This management key does not belong to this org.',
  teamKeyOrgLevel: 'A team management key cannot act on org-level resources; use an org management key.',
  teamNotBound: 'This team management key is not bound to this team.',
  teamNotFound: 'Team not found',
} as const;

/** The management keys' texts (management-keys.ts). */
export const MANAGEMENT_KEY_MESSAGES = {
  notFound: 'Management key not found',
  teamAdminNeedsBindings: 'A team_admin key needs at least one team role binding',
  orgAdminCreateNoBindings: 'An org_admin key acts on the whole org and takes no team role bindings',
  orgAdminNoBindings: 'An org_admin key takes no team role bindings',
  notATeam: (teamId: string) => `Team ${teamId} is not a team of this org`,
} as const;

/** The custom credentials' texts (custom-credentials.ts). */
export const CUSTOM_CREDENTIAL_MESSAGES = {
  detailsRequired: (provider: string) => `${provider} needs details.${provider} with its webhook subscriber verify tokens`,
  noOAuth: (provider: string) => `Provider ${provider} does not connect through OAuth and takes no custom credentials.`,
  clientIdRequired: (provider: string) => `client_id is required to set ${provider} OAuth credentials`,
  clientSecretRequired: (provider: string) => `client_secret is required to set ${provider} OAuth credentials`,
} as const;

/** Builds a management domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('management');

/** Typed management errors of a kind, with a text of the area's catalogues (this file). */
const base = {
  notFound: (text: string): DomainError => err('not_found', text),
  badRequest: (text: string): DomainError => err('bad_request', text),
  forbidden: (text: string): DomainError => err('forbidden', text),
  conflict: (text: string, extra?: Record<string, unknown>): DomainError => err('conflict', text, extra ? { extra } : {}),
  invalid: (loc: Array<string | number>, text: string, input?: unknown): DomainError => err('invalid', text, { loc, input }),
  /** 422 with several items (every problem of a request at once). */
  invalidItems: (items: ValidationItem[]): DomainError => err('invalid', items[0]?.msg ?? '', { items }),
} as const;
const M = base;

export const managementError = {
  ...base,
  memberNotFound: (): DomainError => M.notFound(MANAGEMENT_ERRORS.memberNotFound),
  inviteNotFound: (): DomainError => M.notFound(MANAGEMENT_ERRORS.inviteNotFound),
  domainNotFound: (): DomainError => M.notFound(MANAGEMENT_ERRORS.domainNotFound),
  integrationMemberNotFound: (): DomainError => M.notFound(MANAGEMENT_ERRORS.integrationMemberNotFound),
  queryNotFound: (): DomainError => M.notFound(MANAGEMENT_ERRORS.queryNotFound),
  lastOwner: (): DomainError => M.badRequest(MANAGEMENT_ERRORS.lastOwner),
  domainTaken: (domain: string): DomainError => M.conflict(MANAGEMENT_ERRORS.domainTaken(domain)),
  unknownTeam: (loc: Array<string | number>, teamId: string): DomainError => M.invalid(loc, MANAGEMENT_ERRORS.unknownTeam(teamId), teamId),
  /** 409 with the reference's `IntegrationMemberIDConflictResponse` (`member_id` of the holder) and a `detail`. */
  integrationMemberConflict: (integrationMemberId: string, holderId: string): DomainError =>
    M.conflict(MANAGEMENT_ERRORS.integrationMemberTaken(integrationMemberId), { member_id: holderId }),
  /** 409 with the reference's `IntegrationTeamIDConflictResponse` (`team_id` of the holder) and a `detail`. */
  integrationTeamConflict: (integrationTeamId: string, holderId: string): DomainError =>
    M.conflict(MANAGEMENT_ERRORS.integrationTeamTaken(integrationTeamId, holderId), { team_id: holderId }),
} as const;
