/**
 * The lab domain faults (`POST /_sandbox/orders/:order_id/fault`), in one list that imports
 * nothing: the route's schema, scenarios and the inspector (a browser bundle) read the same one.
 * What each does, and from which statuses: faults-labs.ts and docs/simulated/labs.md.
 */
export const LAB_FAULTS = [
  'sample_rejected',
  'draw_failed',
  'cancelled_by_lab',
  'requisition_failed',
  'partial_then_corrected',
  'critical_result',
  'appointment_cancelled',
  'lost_in_transit',
  'undeliverable_to_customer',
  'undeliverable_to_lab',
] as const;

export type LabFault = (typeof LAB_FAULTS)[number];
