/**
 * The marker catalogue as the API shows it: every marker definition offered by every lab that
 * can run it, with integer ids, lab test codes (`provider_id`), prices and expected results.
 * Built once from the fixed fixtures (it is immutable and the same in every world) and indexed
 * by id, by lab and by provider id.
 */
import { LABS, LAB_BY_ID, LAB_BY_SLUG, type Lab } from '../../fixtures/labs/labs.js';
import { LABS_ERRORS, labsError } from './errors.js';
import { ANALYTE_BY_SLUG, CALCULATED_ANALYTES, MARKER_DEFS, type Analyte, type MarkerDef } from '../../fixtures/labs/markers.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { sealView } from '../../engine/render-cache.js';

export interface ExpectedResult {
  id: number;
  name: string;
  slug: string;
  lab_id: number;
  provider_id: string;
  required: boolean;
  analyte: Analyte;
}

export interface CatalogueMarker {
  id: number;
  def: MarkerDef;
  lab: Lab;
  provider_id: string;
  price: number;
  a_la_carte_enabled: boolean;
  expected_results: ExpectedResult[];
}

const PRICE_FACTOR: Record<string, number> = { quest: 1, labcorp: 1.05, bioreference: 0.95, sonora_quest: 0.9, spiriplex: 1.5, ussl: 1.6 };
const CODE_PREFIX: Record<string, string> = { spiriplex: 'SPX-', ussl: 'USSL-', bioreference: 'BRL-', sonora_quest: 'SQL-' };

function offers(lab: Lab, def: MarkerDef): boolean {
  if (lab.kind === 'venous') return true;
  return def.kit && (def.sample !== 'urine' || lab.sample_types.includes('urine'));
}

function providerId(lab: Lab, def: MarkerDef, index: number): string {
  if (lab.slug === 'quest' && def.quest) return def.quest;
  if (lab.slug === 'labcorp' && def.labcorp) return def.labcorp;
  return `${CODE_PREFIX[lab.slug] ?? `${lab.slug.toUpperCase()}-`}${String(index + 1).padStart(4, '0')}`;
}

function build(): Catalogue {
  const markers: CatalogueMarker[] = [];
  const byId = new Map<number, CatalogueMarker>();
  const byProviderId = new Map<string, CatalogueMarker>();
  const byLab = new Map<number, CatalogueMarker[]>();
  for (const lab of LABS) {
    const list: CatalogueMarker[] = [];
    MARKER_DEFS.forEach((def, i) => {
      if (!offers(lab, def)) return;
      const id = lab.id * 1000 + i + 1;
      const provider_id = providerId(lab, def, i);
      const marker: CatalogueMarker = {
        id,
        def,
        lab,
        provider_id,
        price: Math.round(def.price * (PRICE_FACTOR[lab.slug] ?? 1) * 100) / 100,
        a_la_carte_enabled: lab.kind === 'venous',
        expected_results: def.analytes.map((slug, k) => {
          const analyte = ANALYTE_BY_SLUG.get(slug);
          if (!analyte) throw new Error(`Marker ${def.slug} names unknown analyte ${slug}`);
          return {
            id: id * 100 + k + 1,
            name: analyte.name,
            slug: analyte.slug,
            lab_id: lab.id,
            provider_id: `${provider_id}-${k + 1}`,
            required: !CALCULATED_ANALYTES.has(slug),
            analyte,
          };
        }),
      };
      if (byProviderId.has(provider_id)) throw new Error(`Duplicate lab test code ${provider_id}`);
      markers.push(marker);
      list.push(marker);
      byId.set(id, marker);
      byProviderId.set(provider_id, marker);
    });
    byLab.set(lab.id, list);
  }
  return { markers, byId, byProviderId, byLab };
}

interface Catalogue {
  /** Every marker, by lab then definition order (ascending id). */
  markers: readonly CatalogueMarker[];
  byId: ReadonlyMap<number, CatalogueMarker>;
  byProviderId: ReadonlyMap<string, CatalogueMarker>;
  byLab: ReadonlyMap<number, readonly CatalogueMarker[]>;
}

let built: Catalogue | undefined;

/** The immutable marker catalogue (built on first use). */
export function catalogue(): Catalogue {
  built ??= build();
  return built;
}

/** The marker of a lab with this definition slug, if the lab offers it. */
export function labMarker(lab: Lab, defSlug: string): CatalogueMarker | undefined {
  return catalogue()
    .byLab.get(lab.id)
    ?.find((mk) => mk.def.slug === defSlug);
}

function loincView(analyte: Analyte): Record<string, unknown> {
  return {
    id: Number(analyte.loinc.replace('-', '')),
    name: analyte.loinc_name,
    slug: analyte.slug,
    code: analyte.loinc,
    unit: analyte.unit,
  };
}

/** `ClientFacingResult` (an expected result; `required` is what the SDK insists on). */
function expectedResultView(r: ExpectedResult): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    lab_id: r.lab_id,
    provider_id: r.provider_id,
    required: r.required,
    loinc: loincView(r.analyte),
  };
}

/** `ClientFacingMarker` (no expected results). */
/** One marker by lab id and the lab's test code (`GET /v3/lab_tests/:lab_id/markers/:provider_id`), or the 404. */
export function markerByCode(labId: number, providerId: string): CatalogueMarker {
  const lab = LAB_BY_ID.get(labId);
  const mk = lab
    ? catalogue()
        .byLab.get(lab.id)
        ?.find((x) => x.provider_id === providerId)
    : undefined;
  if (!mk) throw labsError.notFound(LABS_ERRORS.markerNotFound);
  return mk;
}

export function markerView(mk: CatalogueMarker): z.input<typeof W.Marker> {
  const single = mk.def.type === 'biomarker' ? mk.expected_results[0]?.analyte : undefined;
  return {
    id: mk.id,
    name: mk.def.name,
    slug: mk.def.slug,
    description: mk.def.description,
    lab_id: mk.lab.id,
    provider_id: mk.provider_id,
    type: mk.def.type,
    unit: single?.unit ?? null,
    price: mk.price.toFixed(2),
    aoe: null,
    a_la_carte_enabled: mk.a_la_carte_enabled,
    common_tat_days: mk.def.tat[0],
    worst_case_tat_days: mk.def.tat[1],
    is_orderable: true,
  };
}

/** Each catalogue marker's `ClientFacingMarkerComplete`, made once (the catalogue is immutable; the views are sealed). */
const completeViews = new WeakMap<CatalogueMarker, z.input<typeof W.Marker>>();

/** `ClientFacingMarkerComplete` (sealed: shared by every answer that lists the marker). */
function markerCompleteView(mk: CatalogueMarker): z.input<typeof W.Marker> {
  let view = completeViews.get(mk);
  if (view === undefined) {
    view = sealView({ ...markerView(mk), expected_results: mk.expected_results.map(expectedResultView) });
    completeViews.set(mk, view);
  }
  return view;
}

/** A page of a list in the `GetMarkersResponse` shape. */
export function markersPage(list: readonly CatalogueMarker[], page: number, size: number): z.input<typeof W.MarkerPage> {
  const start = (page - 1) * size;
  return {
    markers: list.slice(start, start + size).map(markerCompleteView),
    total: list.length,
    page,
    size,
    pages: Math.ceil(list.length / size),
  };
}

/** Pages kept per marker list (`keptMarkersPage`), at most KEPT_PAGES per list. */
const keptPages = new WeakMap<readonly CatalogueMarker[], Map<string, z.input<typeof W.MarkerPage>>>();
const KEPT_PAGES = 16;

/**
 * `markersPage` of a list nobody changes (a lab test's markers), made once per page and size and
 * sealed, so its bytes are rendered once (issue 45): the same answer while the list is the same.
 */
export function keptMarkersPage(list: readonly CatalogueMarker[], page: number, size: number): z.input<typeof W.MarkerPage> {
  let pages = keptPages.get(list);
  if (pages === undefined) {
    pages = new Map();
    keptPages.set(list, pages);
  }
  const key = `${page}|${size}`;
  let view = pages.get(key);
  if (view === undefined) {
    if (pages.size >= KEPT_PAGES) pages.clear();
    view = sealView(markersPage(list, page, size));
    pages.set(key, view);
  }
  return view;
}

function pricing(markers: readonly CatalogueMarker[]): z.input<typeof W.MarkerPage>['pricing'] {
  const data: Record<string, Record<string, unknown>> = {};
  for (const mk of markers) data[String(mk.id)] = { base_amount_minor: Math.round(mk.price * 100), modifiers: null };
  return { currency: 'USD', data };
}

interface MarkerSearch {
  lab_id?: number[] | undefined;
  lab_slug?: string | undefined;
  name: string;
  a_la_carte_enabled?: boolean | undefined;
  include_pricing: boolean;
  page: number;
  size: number;
}

/** `GET /v3/lab_tests/markers`: the catalogue by lab, name or test code; one page, with prices when asked. */
export function searchMarkers(query: MarkerSearch): z.input<typeof W.MarkerPage> {
  let list: readonly CatalogueMarker[] = catalogue().markers;
  if (query.lab_slug) {
    const lab = LAB_BY_SLUG.get(query.lab_slug);
    list = lab ? (catalogue().byLab.get(lab.id) ?? []) : [];
  } else if (query.lab_id && query.lab_id.length > 0) {
    const ids = new Set(query.lab_id);
    list = list.filter((mk) => ids.has(mk.lab.id));
  }
  const name = query.name.trim().toLowerCase();
  if (name)
    list = list.filter(
      (mk) => mk.def.name.toLowerCase().includes(name) || mk.def.slug.includes(name) || mk.provider_id.toLowerCase() === name,
    );
  if (query.a_la_carte_enabled !== undefined) list = list.filter((mk) => mk.a_la_carte_enabled === query.a_la_carte_enabled);
  const page = markersPage(list, query.page, query.size);
  if (query.include_pricing) {
    const start = (query.page - 1) * query.size;
    page.pricing = pricing(list.slice(start, start + query.size));
  }
  return page;
}

/** The `ClientFacingLab` view. */
export function labView(lab: Lab): z.input<typeof W.Lab> {
  return {
    id: lab.id,
    slug: lab.slug,
    name: lab.name,
    first_line_address: lab.first_line_address,
    city: lab.city,
    zipcode: lab.zipcode,
    collection_methods: [...lab.collection_methods],
    sample_types: [...lab.sample_types],
    logo_url: lab.logo_url,
  };
}

/** Every lab (`GET /v3/lab_tests/labs`). */
export function labsView(): z.input<typeof W.Lab>[] {
  return LABS.map(labView);
}
