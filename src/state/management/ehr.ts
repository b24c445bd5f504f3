/**
 * The EHR integration of an org (management OpenAPI `EhrIntegrationConfig`,
 * `IntegrationManagedMember`, `CreateDashboardURLBody`/`Response`): its configuration, the
 * members the EHR manages (by `integration_member_id`), and dashboard sessions that a dashboard
 * URL opens. Sessions are readable through the control plane until they expire on the sandbox clock.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import type { OrgDomain } from '../domain-context.js';
import { requireOrgAdmin, requireTeam, requireTeamByIntegrationId } from './access.js';
import { stableToken } from '../../engine/ids.js';
import type { Environment, Org, Team } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { managementError, MANAGEMENT_ERRORS } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

type Modality = 'feature_embed' | 'link_out';

interface EhrConfig {
  slug: string;
  modalities: Modality[];
  origin_configs: Array<{ origin: string; session_continuation_url: string | null }>;
}

interface IntegrationMember {
  id: string;
  org_id: string;
  integration_member_id: string;
  name: string;
  email: string;
  avatar: string | null;
  team_ids: string[] | null;
  seq: number;
}

interface DashboardSession {
  token: string;
  org_id: string;
  member_id: string;
  team_id: string | null;
  feature: string;
  modality: Modality;
  environment: Environment;
  created_at: string;
  expires_ms: number;
}

/** Lifetime of a dashboard URL, in seconds of sandbox time. */
export const DASHBOARD_URL_TTL_S = 300;
/** Dashboard sessions kept per org (oldest dropped first). */
const SESSION_LIMIT = 100;

class OrgEhr {
  config: EhrConfig | null = null;
  readonly members = new Map<string, IntegrationMember>();
  readonly byIntegrationId = new Map<string, string>();
  readonly sessions = new Map<string, DashboardSession>();
  seq = 0;
}
dataClass('OrgEhr', OrgEhr);

const ehrStore = worldSlot('management-ehr', () => new Map<string, OrgEhr>());

function ehrOf(world: World, org: Org): OrgEhr {
  const all = ehrStore(world);
  let e = all.get(org.id);
  if (!e) {
    e = new OrgEhr();
    all.set(org.id, e);
  }
  return e;
}

export function getEhrConfig(world: World, org: Org): EhrConfig {
  const config = ehrOf(world, org).config;
  if (!config) throw managementError.notFound(MANAGEMENT_ERRORS.ehrConfigurationNotFound);
  return config;
}

export function upsertEhrConfig(world: World, org: Org, config: EhrConfig): EhrConfig {
  const e = ehrOf(world, org);
  e.config = {
    slug: config.slug,
    modalities: [...new Set(config.modalities)],
    origin_configs: config.origin_configs.map((o) => ({ ...o })),
  };
  return e.config;
}

export function integrationMemberView(m: IntegrationMember): z.input<typeof W.EhrMember> {
  return {
    id: m.id,
    integration_member_id: m.integration_member_id,
    name: m.name,
    email: m.email,
    avatar: m.avatar,
    team_role_bindings: m.team_ids ? m.team_ids.map((team_id) => ({ team_id })) : null,
  };
}

function assertTeams(world: World, org: Org, teamIds: readonly string[] | null, loc: Array<string | number>): void {
  (teamIds ?? []).forEach((id, i) => {
    const team = world.tenancy.teams.get(id);
    if (!team || team.deleted || team.org_id !== org.id) throw managementError.unknownTeam([...loc, i, 'team_id'], id);
  });
}

interface IntegrationMemberInput {
  integration_member_id: string;
  name: string;
  email: string;
  avatar: string | null;
  team_ids: string[] | null;
}

export function createIntegrationMember(world: World, org: Org, input: IntegrationMemberInput): IntegrationMember {
  const e = ehrOf(world, org);
  const holder = e.byIntegrationId.get(input.integration_member_id);
  if (holder) throw managementError.integrationMemberConflict(input.integration_member_id, holder);
  assertTeams(world, org, input.team_ids, ['body', 'team_role_bindings']);
  const m: IntegrationMember = {
    id: world.ids.uuid('integration-member', org.id),
    org_id: org.id,
    ...input,
    team_ids: input.team_ids ? [...new Set(input.team_ids)] : null,
    seq: ++e.seq,
  };
  e.members.set(m.id, m);
  e.byIntegrationId.set(m.integration_member_id, m.id);
  return m;
}

export function getIntegrationMember(world: World, org: Org, memberId: string): IntegrationMember {
  const m = ehrOf(world, org).members.get(memberId);
  if (!m) throw managementError.integrationMemberNotFound();
  return m;
}

export function resolveIntegrationMember(world: World, org: Org, integrationMemberId: string): IntegrationMember {
  const id = ehrOf(world, org).byIntegrationId.get(integrationMemberId);
  return getIntegrationMember(world, org, id ?? '');
}

export function listIntegrationMembers(world: World, org: Org, afterSeq: number): IntegrationMember[] {
  return [...ehrOf(world, org).members.values()].filter((m) => m.seq > afterSeq);
}

/** Updates name, e-mail, avatar and bindings; null or absent fields keep their value. */
export function updateIntegrationMember(
  world: World,
  org: Org,
  memberId: string,
  update: { name?: string | null; email?: string | null; avatar?: string | null; team_ids?: string[] | null },
): IntegrationMember {
  const m = getIntegrationMember(world, org, memberId);
  if (update.team_ids) assertTeams(world, org, update.team_ids, ['body', 'team_role_bindings']);
  if (update.name != null) m.name = update.name;
  if (update.email != null) m.email = update.email;
  if (update.avatar != null) m.avatar = update.avatar;
  if (update.team_ids) m.team_ids = update.team_ids.length > 0 ? [...new Set(update.team_ids)] : null;
  return m;
}

export function deleteIntegrationMember(world: World, org: Org, memberId: string): IntegrationMember {
  const e = ehrOf(world, org);
  const m = getIntegrationMember(world, org, memberId);
  e.members.delete(m.id);
  e.byIntegrationId.delete(m.integration_member_id);
  return m;
}

/** A deleted team leaves every integration member's bindings. */
export function dropEhrTeam(world: World, orgId: string, teamId: string): void {
  const e = ehrStore(world).get(orgId);
  if (!e) return;
  for (const m of e.members.values()) {
    if (!m.team_ids?.includes(teamId)) continue;
    const rest = m.team_ids.filter((id) => id !== teamId);
    m.team_ids = rest.length > 0 ? rest : null;
  }
}

interface DashboardRequest {
  member_id?: string | null | undefined;
  integration_member_id?: string | null | undefined;
  team_id?: string | null | undefined;
  integration_team_id?: string | null | undefined;
  feature: string;
  modality: Modality;
  environment: Environment;
}

/**
 * `POST .../ehr_integration/create_dashboard_url`: the team (by id or integration id, one the
 * key may act on; none needs an org key), then the member (by id or integration id), then the URL.
 */
export function openDashboardUrl(ctx: OrgDomain, org: Org, body: DashboardRequest): z.input<typeof W.ExpiringUrl> {
  let team: Team | null = null;
  if (body.team_id) team = requireTeam(ctx, org.id, body.team_id);
  else if (body.integration_team_id) team = requireTeamByIntegrationId(ctx, org, body.integration_team_id);
  else requireOrgAdmin(ctx, org.id);
  if (!body.member_id && !body.integration_member_id)
    throw managementError.invalid(['body', 'member_id'], MANAGEMENT_ERRORS.memberRequired);
  const member = body.member_id
    ? getIntegrationMember(ctx.world, org, body.member_id)
    : resolveIntegrationMember(ctx.world, org, body.integration_member_id ?? '');
  return createDashboardUrl(
    ctx.world,
    org,
    { member, team, feature: body.feature, modality: body.modality, environment: body.environment },
    ctx.world.clock.now(),
  );
}

/**
 * Opens a dashboard session for a member (and optionally a team) and answers its URL. Needs the
 * configuration, with the modality enabled.
 */
function createDashboardUrl(
  world: World,
  org: Org,
  input: { member: IntegrationMember; team: Team | null; feature: string; modality: Modality; environment: Environment },
  nowMs: number,
): { url: string; expires_in: number } {
  const e = ehrOf(world, org);
  if (!e.config) throw managementError.badRequest(MANAGEMENT_ERRORS.ehrNotConfigured);
  if (!e.config.modalities.includes(input.modality)) throw managementError.badRequest(MANAGEMENT_ERRORS.modalityNotEnabled(input.modality));
  const n = world.ids.nextSeq('ehr-dashboard-session', org.id);
  const token = stableToken(40, world.seed, 'ehr-dashboard-session', org.id, n);
  for (const [t, s] of e.sessions) if (s.expires_ms <= nowMs) e.sessions.delete(t);
  if (e.sessions.size >= SESSION_LIMIT) {
    const oldest = e.sessions.keys().next().value;
    if (oldest !== undefined) e.sessions.delete(oldest);
  }
  e.sessions.set(token, {
    token,
    org_id: org.id,
    member_id: input.member.id,
    team_id: input.team?.id ?? null,
    feature: input.feature,
    modality: input.modality,
    environment: input.environment,
    created_at: new Date(nowMs).toISOString(),
    expires_ms: nowMs + DASHBOARD_URL_TTL_S * 1000,
  });
  const url = `${world.urls.base.replace(/\/+$/, '')}/_sandbox/ehr_dashboard/${token}`;
  return { url, expires_in: DASHBOARD_URL_TTL_S };
}

/** The live session behind a dashboard URL token (control plane), or 404 when unknown or expired. */
export function liveDashboardSession(world: World, token: string, nowMs: number): DashboardSession {
  const s = dashboardSession(world, token, nowMs);
  if (!s) throw managementError.notFound(MANAGEMENT_ERRORS.dashboardSessionNotFound);
  return s;
}

/** The live session behind a dashboard URL token, or null when unknown or expired (control plane). */
function dashboardSession(world: World, token: string, nowMs: number): DashboardSession | null {
  for (const e of ehrStore(world).values()) {
    const s = e.sessions.get(token);
    if (s) return s.expires_ms > nowMs ? s : null;
  }
  return null;
}
