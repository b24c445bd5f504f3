/**
 * Lab-derived timeseries (api-facts F.2; OAS `ClientFacingCholesterolTimeseries`,
 * `ClientFacingIgeTimeseries`, `ClientFacingIggTimeseries`): cholesterol, IgE and IgG samples
 * come from the user's completed lab results (read through the labs area's per-user index),
 * grouped by the performing lab. No wearable provider of the reference records them.
 *
 * - cholesterol: total, LDL, HDL and triglycerides results become `cholesterol/total`,
 *   `cholesterol/ldl`, `cholesterol/hdl` and `cholesterol/triglycerides` samples in mmol/L
 *   (mg/dL converted: cholesterol / 38.67, triglycerides / 88.57, two decimals).
 * - ige / igg: results of IgE / IgG antibody analytes (slug `ige-<allergen>` / `igg-<food>`, or
 *   a name naming the immunoglobulin) become samples typed by the allergen, in the result's unit
 *   (FSU when it has none).
 *
 * Samples are stamped with the sample's collection time; only numeric results count.
 */
import { LAB_BY_SLUG } from '../../fixtures/labs/labs.js';
import type { Domain } from '../domain-context.js';
import type { BiomarkerResultJson } from '../../fixtures/labs/lab-results.js';
import { iso, tzOffsetSeconds } from '../../fixtures/wearables/wearable-time.js';
import { completedLabResultsOf, completedLabResultsOfOrder, type UserLabResults } from '../labs/user-results.js';
import type { User } from '../users/users.js';
import { zoneOf } from './wearable-data.js';
import type { RenderedSample } from '../../fixtures/wearables/cadence.js';
import type { SourceObject } from '../../fixtures/wearables/summaries.js';

export type LabResource = 'cholesterol' | 'ige' | 'igg';
export const LAB_RESOURCES: readonly LabResource[] = ['cholesterol', 'ige', 'igg'];

/** The cholesterol sample types (the deprecated `/cholesterol/<kind>` paths) and their analytes. */
export const CHOLESTEROL_KINDS = ['total', 'ldl', 'hdl', 'triglycerides'] as const;
export type CholesterolKind = (typeof CHOLESTEROL_KINDS)[number];

const CHOLESTEROL: Record<string, { kind: CholesterolKind; mgPerMmol: number }> = {
  'cholesterol-total': { kind: 'total', mgPerMmol: 38.67 },
  'ldl-cholesterol': { kind: 'ldl', mgPerMmol: 38.67 },
  'hdl-cholesterol': { kind: 'hdl', mgPerMmol: 38.67 },
  triglycerides: { kind: 'triglycerides', mgPerMmol: 88.57 },
};

interface LabSample {
  t: number;
  lab: string;
  body: RenderedSample;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** The immunoglobulin class a result measures (`ige` / `igg`), and its allergen type. */
function immunoglobulin(r: BiomarkerResultJson): { resource: 'ige' | 'igg'; type: string } | null {
  const bySlug = /^(ige|igg)[-_](.+)$/i.exec(r.slug);
  if (bySlug) return { resource: (bySlug[1] as string).toLowerCase() as 'ige' | 'igg', type: (bySlug[2] as string).replace(/-/g, '_') };
  const byName = /\b(IgE|IgG)\b/.exec(r.name);
  if (!byName) return null;
  const type = r.slug.replace(/-?(ige|igg)-?/i, '').replace(/-/g, '_') || r.slug.replace(/-/g, '_');
  return { resource: (byName[1] as string).toLowerCase() as 'ige' | 'igg', type };
}

/** A result as a sample of `resource`, or null when it is not one. */
function sampleOf(
  resource: LabResource,
  r: BiomarkerResultJson,
  kinds: readonly CholesterolKind[],
): { type: string; unit: string; value: number } | null {
  if (r.type !== 'numeric' || r.value === null || !Number.isFinite(r.value)) return null;
  if (resource === 'cholesterol') {
    const c = CHOLESTEROL[r.slug];
    if (!c || !kinds.includes(c.kind)) return null;
    const unit = (r.unit ?? '').toLowerCase();
    const value = unit === 'mmol/l' ? r.value : unit === 'mg/dl' ? r.value / c.mgPerMmol : null;
    return value === null ? null : { type: `cholesterol/${c.kind}`, unit: 'mmol/L', value: round2(value) };
  }
  const ig = immunoglobulin(r);
  if (!ig || ig.resource !== resource) return null;
  return { type: ig.type, unit: r.unit ?? 'FSU', value: r.value };
}

/** The samples of a set of results, rendered as the reference does (ClientFacing<Resource>Timeseries). */
function samplesOfResults(user: User, set: UserLabResults, resource: LabResource, kinds: readonly CholesterolKind[]): LabSample[] {
  const out: LabSample[] = [];
  const offset = tzOffsetSeconds(zoneOf(user), set.collectedAt);
  for (const r of set.results) {
    const s = sampleOf(resource, r, kinds);
    if (!s) continue;
    out.push({
      t: set.collectedAt,
      lab: set.lab,
      body: { timestamp: iso(set.collectedAt), timezone_offset: offset, type: s.type, unit: s.unit, value: s.value },
    });
  }
  return out;
}

/**
 * The user's samples of a lab-derived resource collected in `[from, to]`, oldest first,
 * optionally from one lab (`provider`, '' = all) and of some cholesterol kinds.
 */
export interface LabSampleQuery {
  resource: LabResource;
  /** A lab slug, or '' for every lab. */
  provider: string;
  /** Collection time bounds, epoch ms, inclusive. */
  from: number;
  to: number;
  /** The cholesterol kinds kept (default: all). */
  kinds?: readonly CholesterolKind[];
}

export function labSamples(d: Domain, user: User, query: LabSampleQuery): LabSample[] {
  const { resource, provider, from, to, kinds = CHOLESTEROL_KINDS } = query;
  const out: LabSample[] = [];
  for (const set of completedLabResultsOf(d, user.user_id)) {
    if (provider !== '' && set.lab !== provider) continue;
    if (set.collectedAt < from || set.collectedAt > to) continue;
    out.push(...samplesOfResults(user, set, resource, kinds));
  }
  return out;
}

/** The samples a lab order's final results bring (for `daily.data.<resource>.*` events). */
export function labSamplesOfOrder(
  d: Domain,
  user: User,
  orderId: string,
  resource: LabResource,
): { lab: string; samples: LabSample[] } | null {
  const set = completedLabResultsOfOrder(d, orderId);
  if (!set || set.userId !== user.user_id) return null;
  return { lab: set.lab, samples: samplesOfResults(user, set, resource, CHOLESTEROL_KINDS) };
}

/** ClientFacingSource of a lab (what groups and events carry). */
export function labSource(slug: string): SourceObject {
  const lab = LAB_BY_SLUG.get(slug);
  return { provider: slug, type: 'unknown', app_id: null, device_id: null, name: lab?.name ?? slug, slug, logo: lab?.logo_url ?? '' };
}

/** The integer id of a lab (the `source_id` of events). */
export function labSourceId(slug: string): number {
  return LAB_BY_SLUG.get(slug)?.id ?? 0;
}
