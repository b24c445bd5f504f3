/**
 * Where labs collect samples (api-facts B, "Area / PSC info"): whether at-home phlebotomy serves
 * a zip code and which patient service centers (PSCs) are near it. Quest PSCs are generated per
 * zip code (`fixtures/labs/appointment-slots.ts`) and bookable through the sandbox; the other
 * labs have no PSCs in the sandbox.
 */
import { LAB_BY_ID, LAB_BY_SLUG } from '../../fixtures/labs/labs.js';
import { PHLEBOTOMY_AREAS, pscSitesNear, type PscSite } from '../../fixtures/labs/appointment-slots.js';
import { LABS_ERRORS, labsError } from './errors.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

type Capability = 'stat' | 'appointment_scheduling_via_junction' | 'appointment_scheduling_with_lab';

const BILL_TYPES = ['client_bill', 'commercial_insurance', 'patient_bill'];
const CAPABILITIES: Capability[] = ['appointment_scheduling_via_junction'];

function sitesOf(env: Domain, slug: string, zip: string, radius: number, wanted: Capability[] | undefined): PscSite[] {
  if (slug !== 'quest') return [];
  if (wanted?.some((c) => !CAPABILITIES.includes(c))) return [];
  return pscSitesNear(env.world.seed, zip, radius);
}

function locationView(site: PscSite): z.input<typeof W.PscInfo>['patient_service_centers'][number] {
  return {
    metadata: {
      name: site.name,
      state: 'NY',
      city: 'Sandbox City',
      zip_code: site.zip,
      first_line: site.first_line,
      second_line: null,
      phone_number: null,
      fax_number: null,
      hours: null,
      website: null,
    },
    distance: site.distance,
    site_code: site.code,
    supported_bill_types: BILL_TYPES,
    location: { lng: site.lng, lat: site.lat },
    capabilities: CAPABILITIES,
  };
}

/** `PSCInfo`: a lab's PSCs within `radius` miles of a zip code. */
export function pscInfo(env: Domain, labId: number, zip: string, radius: number, capabilities?: Capability[]): z.input<typeof W.PscInfo> {
  const lab = LAB_BY_ID.get(labId);
  if (!lab) throw labsError.notFound(LABS_ERRORS.labNotFound);
  return { lab_id: lab.id, slug: lab.slug, patient_service_centers: sitesOf(env, lab.slug, zip, radius, capabilities).map(locationView) };
}

/** `PSCInfo` around an order's patient address, for the order's lab. */
export function orderPscInfo(env: Domain, orderId: string, radius: number, capabilities?: Capability[]): z.input<typeof W.PscInfo> {
  const order = ordersOf(env).get(orderId);
  if (!order) throw labsError.notFound(LABS_ERRORS.appointmentOrderNotFound);
  const zip = order.patient_address?.zip ?? order.shipping_details?.zip;
  if (!zip) throw labsError.badRequest(LABS_ERRORS.orderWithoutAddress);
  return pscInfo(env, order.lab_test.lab.id, zip.slice(0, 5), radius, capabilities);
}

/** `AreaInfo`: phlebotomy coverage and the PSCs of each lab around a zip code. */
export function areaInfo(env: Domain, zip: string, radius: number, labs: string[]): z.input<typeof W.AreaInfo> {
  const area = PHLEBOTOMY_AREAS[zip];
  const central: z.input<typeof W.AreaInfo>['central_labs'] = {};
  for (const slug of labs) {
    const lab = LAB_BY_SLUG.get(slug);
    if (!lab) continue;
    const sites = sitesOf(env, slug, zip, radius, undefined);
    central[slug] = {
      patient_service_centers: {
        appointment_with_vital: slug === 'quest',
        within_radius: sites.length,
        radius: String(radius),
        capabilities: sites.length > 0 ? CAPABILITIES : [],
      },
      supported_bill_types: BILL_TYPES,
      lab_id: lab.id,
    };
  }
  return {
    zip_code: zip,
    phlebotomy: {
      is_served: area !== undefined,
      providers: area
        ? [{ name: area.provider, service_types: [area.provider === 'getlabs' ? 'appointment-ready' : 'appointment-request'] }]
        : [],
    },
    central_labs: central,
  };
}
