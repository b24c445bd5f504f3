/**
 * The three compendium operations (data OpenAPI `POST /v3/compendium/search`, `/convert`,
 * `/search_orderable_tests`) over the index of `compendium.ts`. Validated first; they change
 * nothing.
 */
import type { Domain } from '../domain-context.js';
import { COMPENDIUM_LABS, type CompendiumLab } from '../../fixtures/labs/compendium.js';

/** The labs the compendium covers (slugs), for request schemas. */
export { COMPENDIUM_LABS };
import { catalogue } from './lab-catalogue.js';
import { findLabTest } from './lab-tests.js';
import {
  type PerLabCandidate,
  canonicalOf,
  canonicalView,
  compendiumLab,
  labCandidates,
  matchCanonicals,
  perLabView,
  relatedOf,
} from './compendium.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

interface SearchCompendiumInput {
  mode: 'canonical' | 'crosswalk';
  query?: string | null;
  cpt_codes: string[];
  loinc_set_hash?: string | null;
  labs?: CompendiumLab[] | null;
  include_related: boolean;
  limit: number;
}

/**
 * `canonical` finds the canonical tests for a query (name words, a provider id, a LOINC code, CPT
 * codes or a LOINC set hash); `crosswalk` also answers, per lab, what that lab calls the best
 * match (its own marker first, then markers of related tests when `include_related`).
 */
export function searchCompendium(input: SearchCompendiumInput): z.input<typeof W.CompendiumSearch> {
  const matches = matchCanonicals(input);
  const top = matches[0];
  const perLab: Record<string, PerLabCandidate[]> = {};
  if (top && input.mode === 'crosswalk') {
    for (const slug of input.labs ?? COMPENDIUM_LABS) {
      perLab[slug] = labCandidates(compendiumLab(slug), top.canonical, input.include_related, input.limit).map(perLabView);
    }
  }
  const related =
    top && input.include_related
      ? relatedOf(top.canonical)
          .slice(0, input.limit)
          .map((r) => ({
            canonical: canonicalView(r.canonical, r.confidence),
            relation: r.relation,
            confidence: r.confidence,
            reason_codes: ['loinc_overlap'],
          }))
      : [];
  return {
    mode: input.mode,
    selected_canonical: top ? canonicalView(top.canonical, top.confidence) : null,
    canonical_candidates: matches.slice(0, input.limit).map((m) => canonicalView(m.canonical, m.confidence)),
    per_lab: perLab,
    related,
  };
}

/** Candidates at the target lab for one provider id (empty when the id is unknown). */
function candidatesFor(providerId: string, target: CompendiumLab, limit: number): PerLabCandidate[] {
  const mk = catalogue().byProviderId.get(providerId.trim());
  if (!mk) return [];
  return labCandidates(compendiumLab(target), canonicalOf(mk), true, limit).map(perLabView);
}

interface ConvertInput {
  lab_test_id?: string | null;
  provider_ids?: string[] | null;
  target_lab: CompendiumLab;
  limit: number;
}

/** Converts a lab test's (or a list of) provider ids to the target lab's. */
export function convertCompendium(d: Domain, input: ConvertInput): z.input<typeof W.CompendiumConversion> {
  let sourceLabId: number | null = null;
  let sourceIds: string[];
  if (input.lab_test_id) {
    const test = findLabTest(d, input.lab_test_id);
    sourceIds = test.markers.map((mk) => mk.provider_id);
    sourceLabId = test.lab.id;
  } else {
    sourceIds = [...new Set(input.provider_ids ?? [])];
    const labs = new Set(sourceIds.flatMap((id) => catalogue().byProviderId.get(id.trim())?.lab.id ?? []));
    sourceLabId = labs.size === 1 ? ([...labs][0] as number) : null;
  }
  const target = compendiumLab(input.target_lab);
  const converted: string[] = [];
  const unresolved: string[] = [];
  const bySource: NonNullable<z.input<typeof W.CompendiumConversion>['by_source_provider_id']> = {};
  for (const id of sourceIds) {
    const candidates = candidatesFor(id, input.target_lab, input.limit);
    bySource[id] = { source_provider_id: id, candidates };
    const best = candidates[0]?.provider_id ?? undefined;
    if (best === undefined) unresolved.push(id);
    else if (!converted.includes(best)) converted.push(best);
  }
  return {
    source_lab_test_id: input.lab_test_id ?? null,
    source_lab_id: sourceLabId,
    target_lab_id: target.id,
    target_lab_slug: target.slug,
    source_provider_ids: sourceIds,
    converted_provider_ids: converted,
    unresolved_provider_ids: unresolved,
    by_source_provider_id: bySource,
  };
}

/** For each provider id, the target lab's orderable candidates (`per_provider_limit` each). */
export function searchOrderableTests(input: {
  provider_ids: string[];
  target_lab: CompendiumLab;
  per_provider_limit: number;
}): Record<string, unknown> {
  const candidates: Record<string, unknown> = {};
  for (const id of input.provider_ids) candidates[id] = candidatesFor(id, input.target_lab, input.per_provider_limit);
  return { candidates };
}
