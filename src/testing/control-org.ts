/**
 * The org, team, EHR and pipeline controls of the control client (`control.orgs.*`,
 * `control.teams.*`, `control.ehr.*`, `control.pipelines.*`): thin typed calls of the control
 * routes, each answering what its route answers (types from `./types.ts`). Every method is async.
 */
import { queryOf, seg, type Requester } from './control-groups.js';
import type {
  BetaFeatures,
  EhrDashboardSession,
  EhrDeliveries,
  OrgMail,
  OrgMember,
  PipelineNdjson,
  PipelineStreamCleared,
  PipelineStreamRecords,
  PipelineStreams,
  PipelineStreamsCleared,
  SandboxOrg,
  SandboxOrgCreated,
  SandboxOrgList,
} from './types.js';

type Plan = 'launch' | 'grow' | 'scale' | 'premium';
type Environment = 'sandbox' | 'production';

export interface OrgControls {
  /** Every org with its plan and team ids. */
  list(): Promise<SandboxOrgList>;
  /** Creates an org (plan default premium) and its management key. */
  create(org?: { name?: string; plan?: Plan }): Promise<SandboxOrgCreated>;
  get(orgId: string): Promise<SandboxOrg>;
  /** Sets an org's plan; only premium may use org management. */
  setPlan(orgId: string, plan: Plan): Promise<SandboxOrg>;
  /** The invitee accepts an org invite: answers the new member. */
  acceptInvite(orgId: string, inviteId: string, invitee?: { name?: string }): Promise<OrgMember>;
  /** E-mails the service would have sent the org (invites, domain instructions), oldest first. */
  mail(orgId: string): Promise<OrgMail>;
}

export interface TeamControls {
  /** The closed-beta features a team is enabled for. */
  betaFeatures(teamId: string): Promise<BetaFeatures>;
  /** Replaces them (e.g. `['lab_accounts']`). */
  setBetaFeatures(teamId: string, features: string[]): Promise<BetaFeatures>;
}

export interface EhrControls {
  /** The session a dashboard URL's token opens, until it expires. */
  dashboard(token: string): Promise<EhrDashboardSession>;
  /** Lab results the team environment's EHR pipelines received, oldest first. */
  deliveries(teamId: string, environment: Environment): Promise<EhrDeliveries>;
}

export interface PipelineControls {
  /** Every pipeline stream with its size, and the NDJSON file in use. */
  streams(): Promise<PipelineStreams>;
  /** The records routed to one stream, oldest first. */
  records(
    stream: string,
    filter?: { team_id?: string; environment?: Environment; after?: number; limit?: number },
  ): Promise<PipelineStreamRecords>;
  /** Empties one stream. */
  clear(stream: string): Promise<PipelineStreamCleared>;
  /** Empties every stream. */
  clearAll(): Promise<PipelineStreamsCleared>;
  /** Also appends every record to this file in the server's data directory; `null` stops. */
  ndjson(path: string | null): Promise<PipelineNdjson>;
}

export function orgControls(request: Requester): OrgControls {
  const base = '/_sandbox/orgs';
  return {
    list: async () => request('GET', base),
    create: async (org = {}) => request('POST', base, org),
    get: async (orgId) => request('GET', `${base}/${seg(orgId)}`),
    setPlan: async (orgId, plan) => request('PUT', `${base}/${seg(orgId)}/plan`, { plan }),
    acceptInvite: async (orgId, inviteId, invitee = {}) =>
      request('POST', `${base}/${seg(orgId)}/invites/${seg(inviteId)}/accept`, invitee),
    mail: async (orgId) => request('GET', `${base}/${seg(orgId)}/mail`),
  };
}

export function teamControls(request: Requester): TeamControls {
  return {
    betaFeatures: async (teamId) => request('GET', `/_sandbox/teams/${seg(teamId)}/beta_features`),
    setBetaFeatures: async (teamId, features) =>
      request('PUT', `/_sandbox/teams/${seg(teamId)}/beta_features`, { beta_features: features }),
  };
}

export function ehrControls(request: Requester): EhrControls {
  return {
    dashboard: async (token) => request('GET', `/_sandbox/ehr_dashboard/${seg(token)}`),
    deliveries: async (teamId, environment) => request('GET', `/_sandbox/ehr_pipelines/${seg(teamId)}/${seg(environment)}`),
  };
}

export function pipelineControls(request: Requester): PipelineControls {
  const base = '/_sandbox/pipelines';
  return {
    streams: async () => request('GET', `${base}/streams`),
    records: async (stream, filter) => request('GET', `${base}/streams/${seg(stream)}${queryOf(filter)}`),
    clear: async (stream) => request('DELETE', `${base}/streams/${seg(stream)}`),
    clearAll: async () => request('DELETE', `${base}/streams`),
    ndjson: async (path) => request('PUT', `${base}/ndjson`, { path }),
  };
}
