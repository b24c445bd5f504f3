/**
 * Request-schema pieces and small helpers shared by the management handlers (management
 * OpenAPI `CreateOrgTeamBody`, `UpdateOrgBody`, path parameters `{env}` / `{region}`), with
 * pydantic-shaped messages.
 */
import { z } from 'zod';
import { uuid } from '../../engine/schemas.js';
import { decodeText64, encodeText64 } from '../../engine/bytes.js';
import { ENVIRONMENTS, REGIONS, type Environment, type Region, type Team } from '../../engine/tenancy.js';
import { managementError, MANAGEMENT_ERRORS } from './errors.js';
import type { OrgDomain } from '../domain-context.js';
import { accessibleTeams, requireOrg, requireTeam } from './access.js';
import { lazySchema } from '../../engine/lazy-schema.js';

/** The reference's name pattern for teams and orgs (letters incl. Latin-1, digits, `(),/:'|&_-`, space, ’; 0 to 80). */
export const NAME_PATTERN_SOURCE = "^[A-Za-zÀ-ÖØ-öø-ÿ0-9(),/:'|&_\\- ’]{0,80}$";
const NAME_PATTERN = new RegExp(NAME_PATTERN_SOURCE);

/** A string matching a pattern, failing with pydantic's `string_pattern_mismatch`. */
export function patterned(source: string, re: RegExp) {
  return z.string().superRefine((v, ctx) => {
    if (!re.test(v)) {
      const msg = `String should match pattern '${source}'`;
      ctx.addIssue({ code: 'custom', message: msg, input: v, params: { pydantic: { type: 'string_pattern_mismatch', msg } } });
    }
  });
}

export const teamName = () => patterned(NAME_PATTERN_SOURCE, NAME_PATTERN);
export const email = () => z.email();
/** `logo_url`: a URI of 1 to 2083 characters. */
export const logoUrl = () => z.string().min(1).max(2083).pipe(z.url());
export const environmentParam = () => z.enum(ENVIRONMENTS as [Environment, ...Environment[]]);
export const regionParam = () => z.enum(REGIONS as [Region, ...Region[]]);

/** `/v1/org/:org_id/<thing>/:env/:region` path parameters. */
export const envRegionParams = lazySchema(() => z.object({ org_id: uuid(), env: environmentParam(), region: regionParam() }));

/** Brand information as the create body takes it (management OpenAPI `BrandInformation` and its defaults). */
export const brandInformation = () =>
  z.object({
    company_name: z.string(),
    company_website: z.string().default(''),
    support_email: email().default('help@tryvital.io'),
    support_contact: z.string().nullable().default(''),
    company_address: z.string().default(''),
    brand_color: z.string().default(''),
  });

/** The teams named (each accessible and in the path's region, 404/403/400), or every accessible team of the region. */
export function regionTeams(ctx: OrgDomain, orgId: string, region: Region, teamIds: readonly string[] | null | undefined): Team[] {
  const org = requireOrg(ctx, orgId);
  if (!teamIds || teamIds.length === 0) return accessibleTeams(ctx, org).filter((t) => t.region === region);
  const teams = [...new Set(teamIds)].map((id) => requireTeam(ctx, orgId, id));
  for (const t of teams) assertTeamRegion(t, region);
  return teams;
}

/** Throws 400 unless the team is in the region of the path. */
export function assertTeamRegion(team: Team, region: Region): void {
  if (team.region !== region) {
    throw managementError.badRequest(MANAGEMENT_ERRORS.wrongRegion(team.id, team.region, region));
  }
}

/** An opaque list cursor for a sequence number (base64url of `<kind>:<n>`). */
export function encodeCursor(kind: string, seq: number): string {
  return encodeText64(`${kind}:${seq}`);
}

const INVALID_CURSOR = 'Invalid cursor: pass the next_cursor of a previous answer';

/** The sequence number in a cursor made by `encodeCursor` for `kind`, or null when it is not one. */
function cursorSeq(kind: string, cursor: string): number | null {
  const m = /^([a-z_]+):(\d{1,15})$/.exec(decodeText64(cursor));
  return m && m[1] === kind ? Number(m[2]) : null;
}

/** Decodes a cursor made by `encodeCursor`; 422 when it is not one of ours. */
export function decodeCursor(kind: string, cursor: string): number {
  const seq = cursorSeq(kind, cursor);
  if (seq === null) throw managementError.invalid(['query', 'next_cursor'], INVALID_CURSOR, cursor);
  return seq;
}

/**
 * Query rule (`withRules`): a `next_cursor` is one of ours for `kind`; answers what `decodeCursor`
 * answers. For lists whose only predecessor is the route's access hook.
 */
export const cursorRule = (kind: string) => (q: { next_cursor?: string | null }) =>
  !!q.next_cursor && cursorSeq(kind, q.next_cursor) === null && { path: ['next_cursor'], message: INVALID_CURSOR, input: q.next_cursor };

/** Query rule (`withRules`) of a one-page list: any `next_cursor` is refused. */
export const onePageRule = (q: { next_cursor?: string | null }) =>
  !!q.next_cursor && { path: ['next_cursor'], message: INVALID_CURSOR, input: q.next_cursor };

/** The reference's `ClientFacingResource` names (data-pull overrides, continuous-query dependencies). */
export const CLIENT_FACING_RESOURCES = [
  'profile',
  'activity',
  'sleep',
  'body',
  'workouts',
  'workout_stream',
  'connection',
  'order',
  'result',
  'match_review',
  'appointment',
  'result_table',
  'glucose',
  'heartrate',
  'hrv',
  'ige',
  'igg',
  'blood_oxygen',
  'blood_pressure',
  'cholesterol',
  'device',
  'device_legacy',
  'weight',
  'fat',
  'body_temperature',
  'body_temperature_delta',
  'meal',
  'water',
  'caffeine',
  'mindfulness_minutes',
  'steps',
  'calories_active',
  'distance',
  'floors_climbed',
  'respiratory_rate',
  'vo2_max',
  'calories_basal',
  'stress_level',
  'menstrual_cycle',
  'sleep_cycle',
  'electrocardiogram',
  'electrocardiogram_voltage',
  'afib_burden',
  'heart_rate_alert',
  'stand_hour',
  'stand_duration',
  'sleep_apnea_alert',
  'sleep_breathing_disturbance',
  'wheelchair_push',
  'forced_expiratory_volume_1',
  'forced_vital_capacity',
  'peak_expiratory_flow_rate',
  'inhaler_usage',
  'fall',
  'uv_exposure',
  'daylight_exposure',
  'handwashing',
  'basal_body_temperature',
  'heart_rate_recovery_one_minute',
  'body_mass_index',
  'lean_body_mass',
  'waist_circumference',
  'workout_distance',
  'workout_swimming_stroke',
  'workout_duration',
  'insulin_injection',
  'carbohydrates',
  'note',
  'sleep_stream',
  'hypnogram',
] as const;
export const CLIENT_FACING_RESOURCE_SET: ReadonlySet<string> = new Set(CLIENT_FACING_RESOURCES);
