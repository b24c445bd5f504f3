/**
 * Lab tests of one team environment (api-facts B.1, H): every team starts with four standard
 * tests, one per collection method, as the real sandbox does; teams add their own
 * (`POST /v3/lab_tests`), and orders placed with an order set get an auto-generated test.
 * The store is created on first use, so teams created at run time get their standard tests too.
 */
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import type { Domain } from '../domain-context.js';
import { DEFAULT_LAB_SLUG, LAB_BY_SLUG, METHODS, type CollectionMethod, type Lab, type SampleType } from '../../fixtures/labs/labs.js';
import { catalogue, labMarker, labView, markerView, type CatalogueMarker } from './lab-catalogue.js';
import { stableUuid } from '../../engine/ids.js';
import { partitionSlot } from '../../engine/world.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { dataClass } from '../../engine/world-codec.js';

export type LabTestStatus = 'active' | 'pending_approval' | 'inactive';

export interface LabTest {
  id: string;
  slug: string;
  name: string;
  description: string;
  method: CollectionMethod;
  sample_type: SampleType;
  lab: Lab;
  markers: CatalogueMarker[];
  fasting: boolean;
  status: LabTestStatus;
  auto_generated: boolean;
  created_at: number;
  updated_at: number;
  seq: number;
}

class LabTestStore {
  private readonly byId = new Map<string, LabTest>();
  private readonly list: LabTest[] = [];
  private readonly slugs = new Set<string>();

  add(test: LabTest): void {
    this.byId.set(test.id, test);
    this.list.push(test);
    this.slugs.add(test.slug);
  }

  all(): readonly LabTest[] {
    return this.list;
  }

  get(id: string): LabTest | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.list.length;
  }

  /** A slug not used yet in this partition. */
  freeSlug(name: string): string {
    const base = slugify(name) || 'lab-test';
    let slug = base;
    for (let n = 2; this.slugs.has(slug); n++) slug = `${base}-${n}`;
    return slug;
  }
}
dataClass('LabTestStore', LabTestStore);

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const STANDARD: Record<CollectionMethod, { name: string; markers: string[] }> = {
  testkit: { name: 'Essentials Testkit', markers: ['lipid-panel', 'hemoglobin-a1c', 'tsh', 'vitamin-d-25-oh'] },
  walk_in_test: {
    name: 'Essentials Walk-In Panel',
    markers: ['comprehensive-metabolic-panel', 'complete-blood-count', 'lipid-panel', 'hemoglobin-a1c'],
  },
  at_home_phlebotomy: {
    name: 'Essentials At-Home Phlebotomy Panel',
    markers: ['comprehensive-metabolic-panel', 'complete-blood-count', 'lipid-panel', 'hemoglobin-a1c'],
  },
  on_site_collection: {
    name: 'Essentials On-Site Collection Panel',
    markers: ['comprehensive-metabolic-panel', 'complete-blood-count', 'lipid-panel', 'tsh'],
  },
};

function sampleTypeFor(lab: Lab, method: CollectionMethod, markers: readonly CatalogueMarker[]): SampleType {
  const allUrine = markers.length > 0 && markers.every((mk) => mk.def.sample === 'urine');
  if (allUrine) return 'urine';
  if (method === 'testkit') return lab.sample_types[0] ?? 'dried_blood_spot';
  return 'serum';
}

interface NewLabTest {
  id: string;
  name: string;
  description: string;
  method: CollectionMethod;
  lab: Lab;
  markers: CatalogueMarker[];
  fasting?: boolean | null;
  auto_generated: boolean;
  now: number;
}

export function addLabTest(store: LabTestStore, input: NewLabTest): LabTest {
  const test: LabTest = {
    id: input.id,
    slug: store.freeSlug(input.name),
    name: input.name,
    description: input.description,
    method: input.method,
    sample_type: sampleTypeFor(input.lab, input.method, input.markers),
    lab: input.lab,
    markers: input.markers,
    fasting: input.fasting ?? input.markers.some((mk) => mk.def.fasting),
    status: 'active',
    auto_generated: input.auto_generated,
    created_at: input.now,
    updated_at: input.now,
    seq: store.size + 1,
  };
  store.add(test);
  return test;
}

function seedStandard(store: LabTestStore, { world, partition }: Domain): void {
  const created = Date.parse(partition.team.created_on);
  const at = Number.isFinite(created) ? created : world.clock.now();
  for (const method of METHODS) {
    const spec = STANDARD[method];
    const lab = LAB_BY_SLUG.get(DEFAULT_LAB_SLUG[method]) as Lab;
    const markers = spec.markers.map((slug) => {
      const mk = labMarker(lab, slug);
      if (!mk) throw new Error(`Standard test marker ${slug} is not offered by ${lab.slug}`);
      return mk;
    });
    addLabTest(store, {
      id: stableUuid(world.seed, 'lab_test', partition.id, method),
      name: spec.name,
      description: `Standard ${method.replace(/_/g, ' ')} test every sandbox team starts with`,
      method,
      lab,
      markers,
      auto_generated: false,
      now: at,
    });
  }
}

export const labTestsOf = partitionSlot('lab_tests', (partition, world) => {
  const store = new LabTestStore();
  seedStandard(store, { world, partition });
  return store;
});

/** The standard test of a method in a partition. */
export function standardTest(store: LabTestStore, method: CollectionMethod): LabTest {
  const test = store.all().find((t) => t.method === method && !t.auto_generated);
  if (!test) throw new Error(`No standard ${method} test`);
  return test;
}

export function labTestPrice(test: LabTest): number {
  return Math.round(test.markers.reduce((sum, mk) => sum + mk.price, 0) * 100) / 100;
}

/** `ClientFacingLabTest`. */
export function labTestView(test: LabTest): z.input<typeof W.LabTest> {
  return {
    id: test.id,
    slug: test.slug,
    name: test.name,
    sample_type: test.sample_type,
    method: test.method,
    price: labTestPrice(test),
    is_active: test.status === 'active',
    status: test.status,
    fasting: test.fasting,
    lab: labView(test.lab),
    markers: test.markers.map(markerView),
    is_delegated: false,
    auto_generated: test.auto_generated,
    has_collection_instructions: test.method === 'testkit',
    common_tat_days: Math.max(0, ...test.markers.map((mk) => mk.def.tat[0])),
    worst_case_tat_days: Math.max(0, ...test.markers.map((mk) => mk.def.tat[1])),
  };
}

/**
 * Resolves marker ids and lab test codes to catalogue markers of one lab that supports the
 * method. Throws the API's errors; changes nothing.
 */
function resolveMarkers(
  input: { marker_ids?: readonly number[] | null; provider_ids?: readonly string[] | null; lab_slug?: string | null },
  method: CollectionMethod | null,
  where: Array<string | number> = ['body'],
): { lab: Lab; markers: CatalogueMarker[] } {
  const cat = catalogue();
  const ids = input.marker_ids ?? [];
  const codes = input.provider_ids ?? [];
  if (ids.length === 0 && codes.length === 0) {
    throw labsError.invalid(where, LABS_ERRORS.markersOrProviderIds);
  }
  let lab: Lab | undefined;
  if (input.lab_slug) {
    lab = LAB_BY_SLUG.get(input.lab_slug);
    if (!lab) throw labsError.badRequest(LABS_TEXTS.unknownLab(input.lab_slug));
  }
  const found: CatalogueMarker[] = [];
  const missingIds = ids.filter((id) => !cat.byId.has(id));
  if (missingIds.length > 0) throw labsError.badRequest(LABS_TEXTS.markersNotFound(missingIds));
  for (const id of ids) found.push(cat.byId.get(id) as CatalogueMarker);
  const missingCodes: string[] = [];
  for (const code of codes) {
    const mk = lab ? cat.byLab.get(lab.id)?.find((x) => x.provider_id === code) : cat.byProviderId.get(code);
    if (mk) found.push(mk);
    else missingCodes.push(code);
  }
  if (missingCodes.length > 0) {
    throw labsError.badRequest(LABS_TEXTS.labTestCodesNotFound(lab ? lab.name : null, missingCodes));
  }
  const labs = new Set(found.map((mk) => mk.lab.id));
  if (labs.size > 1) throw labsError.badRequest(LABS_ERRORS.markersOneLab);
  const markerLab = (found[0] as CatalogueMarker).lab;
  if (lab && markerLab.id !== lab.id) {
    throw labsError.badRequest(LABS_TEXTS.markerNotAtLab((found[0] as CatalogueMarker).id, lab.name));
  }
  lab = markerLab;
  if (method && !lab.collection_methods.includes(method)) {
    throw labsError.badRequest(LABS_TEXTS.labMethodUnsupported(lab.name, method));
  }
  const seen = new Set<number>();
  const markers = found.filter((mk) => (seen.has(mk.id) ? false : (seen.add(mk.id), true)));
  return { lab, markers };
}

/**
 * The markers an order set stands for: the markers of its lab tests plus the add-on markers,
 * all from one lab, without duplicates. Throws the API's errors.
 */
export function orderSetMarkers(
  tests: (id: string) => LabTest | undefined,
  body: { lab_test_ids?: string[] | null; add_on?: { marker_ids?: number[] | null; provider_ids?: string[] | null } | null },
  where: Array<string | number>,
): { markers: CatalogueMarker[]; tests: LabTest[] } {
  const found: LabTest[] = [];
  for (const id of body.lab_test_ids ?? []) {
    const test = tests(id);
    if (!test) throw labsError.notFound(LABS_TEXTS.labTestNotFoundId(id));
    found.push(test);
  }
  const markers: CatalogueMarker[] = found.flatMap((t) => t.markers);
  const addOn = body.add_on;
  if (addOn && ((addOn.marker_ids?.length ?? 0) > 0 || (addOn.provider_ids?.length ?? 0) > 0)) {
    const lab = found[0]?.lab;
    markers.push(...resolveMarkers({ ...addOn, lab_slug: lab?.slug ?? null }, null, [...where, 'add_on']).markers);
  }
  if (new Set(markers.map((mk) => mk.lab.id)).size > 1) throw labsError.badRequest(LABS_ERRORS.orderSetMixedLabs);
  const seen = new Set<number>();
  return { markers: markers.filter((mk) => (seen.has(mk.id) ? false : (seen.add(mk.id), true))), tests: found };
}

/** The markers of an order set of the team's lab tests (`POST /v3/lab_tests/list_order_set_markers`): none for an empty set. */
export function teamOrderSetMarkers(d: Domain, body: Parameters<typeof orderSetMarkers>[1]): CatalogueMarker[] {
  const { world, partition } = d;
  const hasTests = (body.lab_test_ids?.length ?? 0) > 0;
  const hasAddOn = (body.add_on?.marker_ids?.length ?? 0) > 0 || (body.add_on?.provider_ids?.length ?? 0) > 0;
  if (!hasTests && !hasAddOn) return [];
  const store = labTestsOf(partition, world);
  return orderSetMarkers((id) => store.get(id), body, ['body']).markers;
}

/** The team's lab test with this id, or the reference's 404. */
export function findLabTest(d: Domain, id: string): LabTest {
  const { world, partition } = d;
  const test = labTestsOf(partition, world).get(id);
  if (!test) throw labsError.notFound(LABS_ERRORS.labTestNotFound);
  return test;
}

interface LabTestListQuery {
  generation_method: 'auto' | 'manual' | 'all';
  lab_slug?: string | undefined;
  collection_method?: CollectionMethod | undefined;
  status?: string | undefined;
  marker_ids?: number[] | undefined;
  provider_ids?: string[] | undefined;
  name?: string | undefined;
  order_key?: 'price' | 'created_at' | 'updated_at' | undefined;
  order_direction: 'asc' | 'desc';
}

/** The team's lab tests matching a query (`GET /v3/lab_tests`). */
export function listLabTests(d: Domain, query: LabTestListQuery): LabTest[] {
  const { world, partition } = d;
  const name = query.name?.toLowerCase();
  let list = labTestsOf(partition, world)
    .all()
    .filter((t) => {
      if (query.generation_method === 'manual' && t.auto_generated) return false;
      if (query.generation_method === 'auto' && !t.auto_generated) return false;
      if (query.lab_slug && t.lab.slug !== query.lab_slug) return false;
      if (query.collection_method && t.method !== query.collection_method) return false;
      if (query.status && t.status !== query.status) return false;
      if (name && !t.name.toLowerCase().includes(name)) return false;
      if (query.marker_ids && !query.marker_ids.every((id) => t.markers.some((mk) => mk.id === id))) return false;
      if (query.provider_ids && !query.provider_ids.every((id) => t.markers.some((mk) => mk.provider_id === id))) return false;
      return true;
    });
  const key = query.order_key;
  if (key) {
    const value = (t: LabTest) => (key === 'price' ? labTestPrice(t) : key === 'created_at' ? t.created_at : t.updated_at);
    const dir = query.order_direction === 'desc' ? -1 : 1;
    list = [...list].sort((a, b) => dir * (value(a) - value(b)) || a.seq - b.seq);
  } else if (query.order_direction === 'desc') {
    list = [...list].reverse();
  }
  return list;
}

/** Creates a lab test from marker ids or lab test codes of one lab (`POST /v3/lab_tests`). */
export function createLabTest(
  d: Domain,
  input: {
    name: string;
    description: string;
    method: CollectionMethod;
    marker_ids?: number[] | null;
    provider_ids?: string[] | null;
    fasting?: boolean | null;
    lab_slug?: string | null;
  },
): LabTest {
  const { world, partition } = d;
  if (input.lab_slug && !LAB_BY_SLUG.has(input.lab_slug)) throw labsError.badRequest(LABS_TEXTS.labNotInCatalogue(input.lab_slug));
  const { lab, markers } = resolveMarkers(input, input.method);
  return addLabTest(labTestsOf(partition, world), {
    id: world.ids.uuid('lab_test', partition.id),
    name: input.name,
    description: input.description,
    method: input.method,
    lab,
    markers,
    fasting: input.fasting,
    auto_generated: false,
    now: world.clock.now(),
  });
}

/** Renames a lab test and/or (de)activates it (`PATCH /v3/lab_tests/{id}`). */
export function updateLabTest(d: Domain, id: string, input: { name: string | null; active: boolean | null }): LabTest {
  const { world } = d;
  const test = findLabTest(d, id);
  if (input.name === null && input.active === null) return test;
  if (input.name !== null) test.name = input.name;
  if (input.active !== null) test.status = input.active ? 'active' : 'inactive';
  test.updated_at = world.clock.now();
  return test;
}

const encodeCursor = (offset: number) => btoa(JSON.stringify({ o: offset })).replace(/=+$/, '');

function decodeCursor(cursor: string): number | null {
  try {
    const parsed = JSON.parse(atob(cursor)) as { o?: unknown };
    return typeof parsed.o === 'number' && Number.isSafeInteger(parsed.o) && parsed.o >= 0 ? parsed.o : null;
  } catch {
    return null;
  }
}

/** One page of `listLabTests` by cursor (`GET /v3/lab_test`): the page and the next page's cursor. */
export function pageLabTests(
  d: Domain,
  query: LabTestListQuery,
  limit: number,
  cursor: string | null,
): { data: LabTest[]; next_cursor: string | null } {
  const offset = cursor === null ? 0 : decodeCursor(cursor);
  if (offset === null) throw labsError.invalid(['query', 'next_cursor'], LABS_ERRORS.invalidCursor, cursor);
  const list = listLabTests(d, query);
  const data = list.slice(offset, offset + limit);
  return { data, next_cursor: offset + limit < list.length ? encodeCursor(offset + limit) : null };
}
