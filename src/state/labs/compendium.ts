/**
 * The compendium (data OpenAPI tag `compendium`): canonical tests (one per marker definition,
 * identified by the hash of its LOINC set) and what each lab calls them, over the sandbox's
 * marker catalogue. The catalogue is fixed and small (about thirty canonical tests, under two
 * hundred lab markers), so the index is built once: canonicals by hash, CPT code, LOINC code and
 * provider id, and the related canonicals of each. A text query walks the thirty canonicals.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toHex, utf8Encode } from '../../engine/bytes.js';
import { COMPENDIUM_EXTRA, COMPENDIUM_LABS, type CompendiumLab } from '../../fixtures/labs/compendium.js';
import { LAB_BY_SLUG, type Lab } from '../../fixtures/labs/labs.js';
import { MARKER_DEFS, type MarkerDef } from '../../fixtures/labs/markers.js';
import { catalogue, labMarker, type CatalogueMarker } from './lab-catalogue.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

/** `CanonicalCandidate` and `PerLabCandidate` as the compendium answers carry them. */
export type CanonicalCandidate = NonNullable<z.input<typeof W.CompendiumSearch>['selected_canonical']>;
export type PerLabCandidate = NonNullable<z.input<typeof W.CompendiumSearch>['per_lab']>[string][number];

interface Canonical {
  def: MarkerDef;
  hash: string;
  loinc: string[];
  components: string[];
  cpt: string[];
  group: string;
  popularity: number;
  aliases: string[];
  /** Provider ids at the compendium labs. */
  providerIds: string[];
  words: string[];
}

interface Relation {
  canonical: Canonical;
  relation: 'contains' | 'contained_in' | 'overlaps';
  confidence: number;
}

interface Index {
  list: Canonical[];
  byDef: Map<string, Canonical>;
  byHash: Map<string, Canonical>;
  byCpt: Map<string, Canonical[]>;
  byLoinc: Map<string, Canonical[]>;
  related: Map<Canonical, Relation[]>;
}

const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w.length > 0);
const round = (x: number): number => Math.round(x * 1000) / 1000;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function relationOf(a: Canonical, b: Canonical): Relation | null {
  const bs = new Set(b.loinc);
  const shared = a.loinc.filter((x) => bs.has(x)).length;
  if (shared === 0) return null;
  const union = a.loinc.length + b.loinc.length - shared;
  const relation = shared === b.loinc.length ? 'contains' : shared === a.loinc.length ? 'contained_in' : 'overlaps';
  return { canonical: b, relation, confidence: round(shared / union) };
}

let built: Index | undefined;

function index(): Index {
  if (built) return built;
  const cat = catalogue();
  const list: Canonical[] = MARKER_DEFS.map((def) => {
    const analytes = cat.markers.find((mk) => mk.def === def)?.expected_results.map((r) => r.analyte) ?? [];
    const loinc = analytes.map((a) => a.loinc).sort();
    const extra = COMPENDIUM_EXTRA[def.slug] ?? { cpt: [], group: 'Other', popularity: 0.1 };
    const providerIds = COMPENDIUM_LABS.flatMap((slug) => {
      const lab = LAB_BY_SLUG.get(slug);
      const mk = lab ? labMarker(lab, def.slug) : undefined;
      return mk ? [mk.provider_id] : [];
    });
    const aliases = [...new Set([def.description, def.slug.replace(/-/g, ' ')].filter((a) => a !== def.name))];
    return {
      def,
      hash: toHex(sha256(utf8Encode(loinc.join(',')))).slice(0, 16),
      loinc,
      components: analytes.map((a) => a.loinc_name.split(' [')[0] as string),
      cpt: [...extra.cpt],
      group: extra.group,
      popularity: extra.popularity,
      aliases,
      providerIds,
      words: [...new Set([...wordsOf(def.name), ...aliases.flatMap(wordsOf), ...analytes.flatMap((a) => wordsOf(a.name))])],
    };
  });
  const idx: Index = { list, byDef: new Map(), byHash: new Map(), byCpt: new Map(), byLoinc: new Map(), related: new Map() };
  for (const c of list) {
    idx.byDef.set(c.def.slug, c);
    idx.byHash.set(c.hash, c);
    for (const code of c.cpt) push(idx.byCpt, code, c);
    for (const code of c.loinc) push(idx.byLoinc, code, c);
  }
  for (const c of list) {
    const others = new Set(c.loinc.flatMap((code) => idx.byLoinc.get(code) ?? []));
    others.delete(c);
    const rel = [...others]
      .flatMap((o) => relationOf(c, o) ?? [])
      .sort((x, y) => y.confidence - x.confidence || y.canonical.popularity - x.canonical.popularity);
    idx.related.set(c, rel);
  }
  built = idx;
  return built;
}

/** The canonical test of a catalogue marker. */
export function canonicalOf(mk: CatalogueMarker): Canonical {
  return index().byDef.get(mk.def.slug) as Canonical;
}

interface CompendiumQuery {
  query?: string | null;
  cpt_codes: string[];
  loinc_set_hash?: string | null;
}

/** Canonicals matching a query, best first, with their confidence. */
export function matchCanonicals(q: CompendiumQuery): Array<{ canonical: Canonical; confidence: number }> {
  const idx = index();
  const scores = new Map<Canonical, number>();
  const raise = (c: Canonical, x: number) => scores.set(c, Math.max(scores.get(c) ?? 0, round(x)));
  if (q.loinc_set_hash) {
    const c = idx.byHash.get(q.loinc_set_hash.trim().toLowerCase());
    if (c) raise(c, 1);
  }
  for (const code of q.cpt_codes) {
    for (const c of idx.byCpt.get(code.trim()) ?? []) raise(c, 0.9 * (1 / c.cpt.length) + 0.1);
  }
  const text = q.query?.trim() ?? '';
  if (text !== '') {
    const pid = catalogue().byProviderId.get(text);
    if (pid) raise(canonicalOf(pid), 1);
    for (const c of idx.byLoinc.get(text) ?? []) raise(c, c.loinc.length === 1 ? 0.95 : 0.5 / c.loinc.length + 0.3);
    const words = wordsOf(text);
    if (words.length > 0) {
      for (const c of idx.list) {
        const hits = words.filter((w) => c.words.some((cw) => cw.startsWith(w))).length;
        if (hits === 0) continue;
        const name = c.def.name.toLowerCase() === text.toLowerCase() ? 1 : 0.85 * (hits / words.length) * (hits === words.length ? 1 : 0.6);
        raise(c, name);
      }
    }
  }
  return [...scores.entries()]
    .filter(([, x]) => x > 0)
    .map(([canonical, confidence]) => ({ canonical, confidence }))
    .sort(
      (a, b) =>
        b.confidence - a.confidence ||
        b.canonical.popularity - a.canonical.popularity ||
        a.canonical.def.name.localeCompare(b.canonical.def.name, 'en'),
    );
}

export function relatedOf(c: Canonical): readonly Relation[] {
  return index().related.get(c) ?? [];
}

/** `CanonicalCandidate`. */
export function canonicalView(c: Canonical, confidence: number): CanonicalCandidate {
  return {
    loinc_set_hash: c.hash,
    display_name: c.def.name,
    aliases: c.aliases,
    loinc_codes: c.loinc,
    provider_ids: c.providerIds,
    loinc_components: c.components,
    loinc_groups: [c.group],
    cpt_codes: c.cpt,
    popularity_score: c.popularity,
    confidence,
  };
}

interface LabCandidate {
  marker: CatalogueMarker;
  relation: string;
  confidence: number;
  reasons: string[];
}

/** `PerLabCandidate`. */
export function perLabView(x: LabCandidate): PerLabCandidate {
  const c = canonicalOf(x.marker);
  return {
    marker_id: x.marker.id,
    lab_id: x.marker.lab.id,
    lab_slug: x.marker.lab.slug,
    name: x.marker.def.name,
    result_names: x.marker.expected_results.map((r) => r.name),
    provider_id: x.marker.provider_id,
    loinc_set_hash: c.hash,
    loinc_codes: c.loinc,
    loinc_components: c.components,
    loinc_groups: [c.group],
    cpt_codes: c.cpt,
    relation: x.relation,
    confidence: x.confidence,
    reason_codes: x.reasons,
    marker_popularity_score: c.popularity,
  };
}

/** What a lab offers for a canonical: its own marker (exact), then markers of related canonicals. */
export function labCandidates(lab: Lab, c: Canonical, withRelated: boolean, limit: number): LabCandidate[] {
  const out: LabCandidate[] = [];
  const exact = labMarker(lab, c.def.slug);
  if (exact) out.push({ marker: exact, relation: 'exact', confidence: 1, reasons: ['same_loinc_set'] });
  if (withRelated) {
    for (const r of relatedOf(c)) {
      if (out.length >= limit) break;
      const mk = labMarker(lab, r.canonical.def.slug);
      if (mk) out.push({ marker: mk, relation: r.relation, confidence: round(r.confidence * 0.9), reasons: ['loinc_overlap'] });
    }
  }
  return out.slice(0, limit);
}

export function compendiumLab(slug: CompendiumLab): Lab {
  return LAB_BY_SLUG.get(slug) as Lab;
}
