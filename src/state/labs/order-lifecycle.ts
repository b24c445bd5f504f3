/**
 * Lab order lifecycle rules (spec 2.4, 3; api-facts B.4): the low-level statuses, their
 * high-level status per collection method (the `<high>.<method>.<low>` OrderStatus enum), the
 * path an order takes for each method and fate with the sandbox time each step takes, the
 * statuses an order may be cancelled from, and the scenario hints that pick a fate or a result
 * interpretation from the order's own data.
 */
import type { CollectionMethod } from '../../fixtures/labs/labs.js';

export type LowStatus =
  | 'ordered'
  | 'requisition_created'
  | 'requisition_bypassed'
  | 'transit_customer'
  | 'out_for_delivery'
  | 'with_customer'
  | 'transit_lab'
  | 'delivered_to_lab'
  | 'completed'
  | 'failure_to_deliver_to_lab'
  | 'failure_to_deliver_to_customer'
  | 'problem_in_transit_lab'
  | 'problem_in_transit_customer'
  | 'sample_error'
  | 'appointment_scheduled'
  | 'appointment_cancelled'
  | 'appointment_pending'
  | 'draw_completed'
  | 'cancelled'
  | 'lost'
  | 'do_not_process'
  | 'partial_results'
  | 'awaiting_registration'
  | 'registered'
  | 'redraw_available'
  | 'corrected'
  | 'lab_processing_blocked';

export const LOW_STATUSES: readonly LowStatus[] = [
  'ordered',
  'requisition_created',
  'requisition_bypassed',
  'transit_customer',
  'out_for_delivery',
  'with_customer',
  'transit_lab',
  'delivered_to_lab',
  'completed',
  'failure_to_deliver_to_lab',
  'failure_to_deliver_to_customer',
  'problem_in_transit_lab',
  'problem_in_transit_customer',
  'sample_error',
  'appointment_scheduled',
  'appointment_cancelled',
  'appointment_pending',
  'draw_completed',
  'cancelled',
  'lost',
  'do_not_process',
  'partial_results',
  'awaiting_registration',
  'registered',
  'redraw_available',
  'corrected',
  'lab_processing_blocked',
];

type HighStatus = 'received' | 'collecting_sample' | 'sample_with_lab' | 'completed' | 'cancelled' | 'failed';

type HighTable = Partial<Record<LowStatus, HighStatus>>;

const COMMON: HighTable = {
  ordered: 'received',
  requisition_created: 'received',
  requisition_bypassed: 'received',
  completed: 'completed',
  corrected: 'completed',
  cancelled: 'cancelled',
  sample_error: 'failed',
};

/** Low-level status -> high-level status, per method (the OrderStatus enum). */
export const HIGH_LEVEL: Readonly<Record<CollectionMethod, HighTable>> = {
  testkit: {
    ...COMMON,
    awaiting_registration: 'received',
    registered: 'received',
    transit_customer: 'collecting_sample',
    out_for_delivery: 'collecting_sample',
    with_customer: 'collecting_sample',
    transit_lab: 'collecting_sample',
    problem_in_transit_customer: 'collecting_sample',
    problem_in_transit_lab: 'collecting_sample',
    delivered_to_lab: 'sample_with_lab',
    lab_processing_blocked: 'sample_with_lab',
    do_not_process: 'cancelled',
    failure_to_deliver_to_customer: 'failed',
    failure_to_deliver_to_lab: 'failed',
    lost: 'failed',
  },
  walk_in_test: {
    ...COMMON,
    appointment_pending: 'collecting_sample',
    appointment_scheduled: 'collecting_sample',
    appointment_cancelled: 'collecting_sample',
    redraw_available: 'collecting_sample',
    partial_results: 'sample_with_lab',
  },
  at_home_phlebotomy: {
    ...COMMON,
    appointment_pending: 'collecting_sample',
    appointment_scheduled: 'collecting_sample',
    appointment_cancelled: 'collecting_sample',
    draw_completed: 'collecting_sample',
    partial_results: 'sample_with_lab',
  },
  on_site_collection: {
    ...COMMON,
    draw_completed: 'sample_with_lab',
    partial_results: 'sample_with_lab',
  },
};

export function highLevel(method: CollectionMethod, low: LowStatus): HighStatus {
  const high = HIGH_LEVEL[method][low];
  if (!high) throw new Error(`Status ${low} does not exist for ${method}`);
  return high;
}

/** `<high>.<method>.<low>`. */
export function fullStatus(method: CollectionMethod, low: LowStatus): string {
  return `${highLevel(method, low)}.${method}.${low}`;
}

/** Every valid `<high>.<method>.<low>` value (the OrderStatus enum). */
export const ORDER_STATUSES: readonly string[] = (Object.keys(HIGH_LEVEL) as CollectionMethod[]).flatMap((method) =>
  (Object.keys(HIGH_LEVEL[method]) as LowStatus[]).map((low) => fullStatus(method, low)),
);

/** Parses a full OrderStatus value. */
export function parseFullStatus(value: string): { method: CollectionMethod; low: LowStatus } | null {
  const [high, method, low] = value.split('.');
  if (!high || !method || !low || !(method in HIGH_LEVEL)) return null;
  const m = method as CollectionMethod;
  return HIGH_LEVEL[m][low as LowStatus] === high ? { method: m, low: low as LowStatus } : null;
}

/** Statuses after which nothing more happens to an order. */
export const FINAL: ReadonlySet<LowStatus> = new Set<LowStatus>([
  'completed',
  'corrected',
  'cancelled',
  'do_not_process',
  'sample_error',
  'failure_to_deliver_to_customer',
  'failure_to_deliver_to_lab',
  'lost',
  // The initial order of a redraw: "No further updates for this order should be expected" (lab/workflow/redraws).
  'redraw_available',
]);

const CANCEL_ALWAYS: LowStatus[] = ['ordered', 'requisition_created', 'requisition_bypassed', 'awaiting_registration'];

/** The statuses of `list` that exist for the method (awaiting_registration is testkit-only). */
const ofMethod = (method: CollectionMethod, list: LowStatus[]): ReadonlySet<LowStatus> =>
  new Set(list.filter((low) => HIGH_LEVEL[method][low] !== undefined));

/** Statuses an order may be cancelled from (docs: lab/workflow/cancelling-an-order). */
export const CANCELLABLE: Readonly<Record<CollectionMethod, ReadonlySet<LowStatus>>> = {
  testkit: ofMethod('testkit', [...CANCEL_ALWAYS, 'registered']),
  walk_in_test: ofMethod('walk_in_test', [...CANCEL_ALWAYS, 'appointment_pending', 'appointment_scheduled', 'appointment_cancelled']),
  at_home_phlebotomy: ofMethod('at_home_phlebotomy', [
    ...CANCEL_ALWAYS,
    'appointment_pending',
    'appointment_scheduled',
    'appointment_cancelled',
    'draw_completed',
  ]),
  on_site_collection: ofMethod('on_site_collection', [...CANCEL_ALWAYS, 'draw_completed']),
};

/**
 * Statuses at which results (partial or final) exist. At `redraw_available` "the result has been
 * marked as final but is missing biomarker results due to lab error" (lab/walk-in/order-lifecycle):
 * the initial order's results are available, missing what the redraw retests (lab/workflow/redraws).
 */
export const RESULT_STAGE: Readonly<Partial<Record<LowStatus, 'partial' | 'final' | 'corrected'>>> = {
  partial_results: 'partial',
  redraw_available: 'final',
  completed: 'final',
  corrected: 'corrected',
};

/** The event's `status_detail` for statuses that carry one. */
export const STATUS_DETAIL: Readonly<Partial<Record<LowStatus, string>>> = {
  sample_error: 'sample_hemolyzed',
  redraw_available: 'sample_quantity_not_sufficient',
  lab_processing_blocked: 'demographic_information_mismatch',
  failure_to_deliver_to_customer: 'fulfillment_error',
  failure_to_deliver_to_lab: 'fulfillment_error',
};

// ---------------------------------------------------------------------------------------------
// Paths

const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * One step: the status reached, the sandbox time it takes after the previous step, and an
 * optional gate (the clock does not pass it on its own): `draw` waits for
 * `PATCH /draw_completed`, `registration` for `POST /v3/order/testkit/register`, `appointment`
 * for a booked appointment (at-home phlebotomy, api-facts J).
 */
export interface Step {
  status: LowStatus;
  after: number;
  gate?: 'draw' | 'registration' | 'appointment';
}

export type Fate =
  | 'happy'
  | 'failure_to_deliver_to_customer'
  | 'problem_in_transit'
  | 'failure_to_deliver_to_lab'
  | 'lost'
  | 'lab_processing_blocked'
  | 'do_not_process'
  | 'sample_error'
  | 'redraw'
  | 'appointment'
  | 'appointment_cancelled'
  | 'corrected';

/** Fates that apply to each method (a hint for another method falls back to `happy`). */
export const FATES: Readonly<Record<CollectionMethod, readonly Fate[]>> = {
  testkit: [
    'happy',
    'problem_in_transit',
    'lab_processing_blocked',
    'corrected',
    'failure_to_deliver_to_customer',
    'failure_to_deliver_to_lab',
    'lost',
    'do_not_process',
    'sample_error',
  ],
  walk_in_test: ['happy', 'appointment', 'appointment_cancelled', 'redraw', 'corrected', 'sample_error'],
  at_home_phlebotomy: ['happy', 'appointment_cancelled', 'corrected', 'sample_error'],
  on_site_collection: ['happy', 'corrected', 'sample_error'],
};

const s = (status: LowStatus, after: number, gate?: Step['gate']): Step => (gate ? { status, after, gate } : { status, after });

function happyPath(method: CollectionMethod, registrable: boolean): Step[] {
  switch (method) {
    case 'testkit':
      return registrable
        ? [
            s('ordered', 0),
            s('awaiting_registration', 5 * MINUTE),
            s('transit_customer', HOUR),
            s('out_for_delivery', 2 * DAY),
            s('with_customer', 6 * HOUR),
            s('registered', HOUR, 'registration'),
            s('requisition_created', 5 * MINUTE),
            s('transit_lab', DAY),
            s('delivered_to_lab', 2 * DAY),
            s('completed', 3 * DAY),
          ]
        : [
            s('ordered', 0),
            s('requisition_created', 5 * MINUTE),
            s('transit_customer', HOUR),
            s('out_for_delivery', 2 * DAY),
            s('with_customer', 6 * HOUR),
            s('transit_lab', DAY),
            s('delivered_to_lab', 2 * DAY),
            s('completed', 3 * DAY),
          ];
    case 'walk_in_test':
      return [s('ordered', 0), s('requisition_created', 5 * MINUTE), s('partial_results', 2 * DAY), s('completed', DAY)];
    case 'at_home_phlebotomy':
      return [
        s('ordered', 0),
        s('requisition_created', 5 * MINUTE),
        s('appointment_pending', HOUR, 'appointment'),
        s('appointment_scheduled', DAY),
        s('draw_completed', 2 * DAY),
        s('partial_results', DAY),
        s('completed', DAY),
      ];
    case 'on_site_collection':
      return [
        s('ordered', 0),
        s('requisition_created', 5 * MINUTE),
        s('draw_completed', 0, 'draw'),
        s('partial_results', DAY),
        s('completed', DAY),
      ];
  }
}

function cutAfter(path: Step[], status: LowStatus, ...tail: Step[]): Step[] {
  const i = path.findIndex((x) => x.status === status);
  return [...path.slice(0, i + 1), ...tail];
}

function insertAfter(path: Step[], status: LowStatus, steps: Step[], nextAfter?: number): Step[] {
  const i = path.findIndex((x) => x.status === status);
  const rest = path.slice(i + 1);
  const first = rest[0];
  if (first && nextAfter !== undefined) rest[0] = { ...first, after: nextAfter };
  return [...path.slice(0, i + 1), ...steps, ...rest];
}

/** The full path of an order of a method and fate, starting at `ordered`. */
export function buildPath(method: CollectionMethod, fate: Fate, registrable = false): Step[] {
  const happy = happyPath(method, registrable);
  const applies = FATES[method].includes(fate);
  switch (applies ? fate : 'happy') {
    case 'failure_to_deliver_to_customer':
      return cutAfter(happy, 'out_for_delivery', s('failure_to_deliver_to_customer', 3 * DAY));
    case 'problem_in_transit': {
      const p = insertAfter(happy, 'transit_customer', [s('problem_in_transit_customer', DAY)], DAY);
      return insertAfter(p, 'transit_lab', [s('problem_in_transit_lab', DAY)], 2 * DAY);
    }
    case 'failure_to_deliver_to_lab':
      return cutAfter(happy, 'transit_lab', s('failure_to_deliver_to_lab', 5 * DAY));
    case 'lost':
      return cutAfter(happy, 'transit_lab', s('lost', 7 * DAY));
    case 'lab_processing_blocked':
      return insertAfter(happy, 'delivered_to_lab', [s('lab_processing_blocked', DAY)], 3 * DAY);
    case 'do_not_process':
      return cutAfter(happy, 'delivered_to_lab', s('do_not_process', DAY));
    case 'sample_error':
      if (method === 'testkit') return cutAfter(happy, 'delivered_to_lab', s('sample_error', DAY));
      if (method === 'walk_in_test') return cutAfter(happy, 'requisition_created', s('sample_error', 3 * DAY));
      return cutAfter(happy, 'draw_completed', s('sample_error', 2 * DAY));
    case 'redraw':
      // The initial order stops at redraw_available; a redraw order (origin `redraw`) goes on (order-redraw.ts).
      return cutAfter(happy, 'requisition_created', s('redraw_available', 3 * DAY));
    case 'appointment':
      if (method === 'walk_in_test') {
        return insertAfter(happy, 'requisition_created', [s('appointment_pending', HOUR), s('appointment_scheduled', 4 * HOUR)], 2 * DAY);
      }
      return happy;
    case 'appointment_cancelled':
      if (method === 'walk_in_test') {
        return insertAfter(
          happy,
          'requisition_created',
          [
            s('appointment_pending', HOUR),
            s('appointment_scheduled', 4 * HOUR),
            s('appointment_cancelled', DAY),
            s('appointment_pending', HOUR),
            s('appointment_scheduled', 4 * HOUR),
          ],
          2 * DAY,
        );
      }
      return insertAfter(
        happy,
        'appointment_scheduled',
        [s('appointment_cancelled', DAY), s('appointment_pending', HOUR), s('appointment_scheduled', DAY)],
        2 * DAY,
      );
    case 'corrected':
      return [...happy, s('corrected', 2 * DAY)];
    default:
      return happy;
  }
}

// ---------------------------------------------------------------------------------------------
// Scenario hints

interface ZipHint {
  zip: string;
  fate: Fate;
  methods: readonly CollectionMethod[];
  description: string;
}

/**
 * `patient_address.zip` (or `shipping_details.zip`) values that choose an order's fate. None is
 * for at-home phlebotomy: only 85004 and 54650 are served (order-progression.ts).
 */
export const ZIP_HINTS: readonly ZipHint[] = [
  {
    zip: '00010',
    fate: 'failure_to_deliver_to_customer',
    methods: ['testkit'],
    description: 'The kit never reaches the patient: out_for_delivery -> failure_to_deliver_to_customer.',
  },
  {
    zip: '00011',
    fate: 'problem_in_transit',
    methods: ['testkit'],
    description: 'Both legs hit a courier problem (problem_in_transit_customer, problem_in_transit_lab) and then recover to completed.',
  },
  {
    zip: '00012',
    fate: 'failure_to_deliver_to_lab',
    methods: ['testkit'],
    description: 'The returned sample never reaches the lab: transit_lab -> failure_to_deliver_to_lab.',
  },
  { zip: '00013', fate: 'lost', methods: ['testkit'], description: 'The returned sample is lost: transit_lab -> lost.' },
  {
    zip: '00014',
    fate: 'lab_processing_blocked',
    methods: ['testkit'],
    description: 'The lab blocks processing for a day (demographic mismatch), then completes.',
  },
  {
    zip: '00015',
    fate: 'do_not_process',
    methods: ['testkit'],
    description: 'The lab refuses the sample: delivered_to_lab -> do_not_process (cancelled).',
  },
  {
    zip: '00020',
    fate: 'sample_error',
    methods: ['testkit', 'walk_in_test', 'on_site_collection'],
    description: 'The sample is unusable: ends in sample_error (status_detail sample_hemolyzed).',
  },
  {
    zip: '00021',
    fate: 'redraw',
    methods: ['walk_in_test'],
    description:
      'Insufficient sample: the order stops at redraw_available (its results readable) and a redraw order joins its transaction, then completes.',
  },
  {
    zip: '00030',
    fate: 'appointment',
    methods: ['walk_in_test'],
    description: 'A patient service center appointment: appointment_pending -> appointment_scheduled before the draw.',
  },
  {
    zip: '00031',
    fate: 'appointment_cancelled',
    methods: ['walk_in_test'],
    description: 'The first appointment is cancelled, a second one is booked, then the draw happens.',
  },
  {
    zip: '00040',
    fate: 'corrected',
    methods: ['testkit', 'walk_in_test', 'on_site_collection'],
    description: 'Two days after completion the lab corrects one result: completed -> corrected.',
  },
];

const ZIP_HINT_BY_ZIP = new Map(ZIP_HINTS.map((h) => [h.zip, h]));

export function fateFromZip(zip: string | null | undefined, method: CollectionMethod): Fate {
  const hint = zip ? ZIP_HINT_BY_ZIP.get(zip.slice(0, 5)) : undefined;
  return hint?.methods.includes(method) ? hint.fate : 'happy';
}

export type Interpretation = 'normal' | 'abnormal' | 'critical' | 'unknown';

interface NameHint {
  last_name: string;
  effect: { interpretation?: Interpretation; has_missing_results?: boolean };
  description: string;
}

/** Words in `patient_details.last_name` (split on spaces and hyphens) that shape the results. */
export const NAME_HINTS: readonly NameHint[] = [
  { last_name: 'Normal', effect: { interpretation: 'normal' }, description: 'Every result within its reference range.' },
  {
    last_name: 'Abnormal',
    effect: { interpretation: 'abnormal' },
    description: 'At least one result outside its reference range (not critical).',
  },
  {
    last_name: 'Critical',
    effect: { interpretation: 'critical' },
    description: 'One result beyond its critical limit: labtest.result.critical is emitted.',
  },
  {
    last_name: 'Missing',
    effect: { has_missing_results: true },
    description: 'Some results are missing (missing_results, has_missing_results: true).',
  },
];

export function nameHints(lastName: string | null | undefined): NameHint['effect'] {
  const out: NameHint['effect'] = {};
  if (!lastName) return out;
  const words = new Set(lastName.toLowerCase().split(/[\s-]+/));
  for (const hint of NAME_HINTS) if (words.has(hint.last_name.toLowerCase())) Object.assign(out, hint.effect);
  return out;
}
