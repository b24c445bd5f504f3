/**
 * The labs error catalogue: every error text of the lab area as a constant, and the typed
 * domain error the labs domain functions throw. One table (`DOMAIN_ERROR_STATUS`,
 * src/state/domain-error.ts) maps each kind to the real service's status and body shape; dispatch
 * renders it like any other `ApiError`.
 * Tests import these constants instead of repeating literal texts.
 */
import { DomainError, type DomainErrorDetails, type DomainErrorKind } from '../domain-error.js';

export const LAB_MESSAGES = {
  orderGetNotFound: "This order doesn't exist",
  orderActionNotFound: "Order doesn't exist",
  orderResultNotFound: 'Order not found',
  transactionNotFound: 'Order transaction not found',
  noCollectionInstructions: 'Collection instructions are only available for testkit lab tests',
  importSampleIdUsed: 'An order with this sample_id already exists',
  importNeedsLabTest: 'The order set of an imported order needs at least one lab test or add-on marker',
  appointmentRequestZip: 'At-home phlebotomy is not available at this address',
  appointmentRequestProvider: 'This provider does not serve this address',
  labTestNotFound: 'Lab test not found',
  testkitNotFound: 'Testkit not found',
  testkitAlreadyRegistered: 'This testkit has already been registered',
  userNotOnTeam: 'User does not exist on this team',
  bothLabTestAndOrderSet: 'Provide either lab_test_id or order_set, not both',
  labTestOrOrderSetRequired: 'Either lab_test_id or order_set must be provided',
  orderSetMixedLabs: 'All lab tests and markers of an order set must belong to the same lab',
  emptyOrderSet: 'An order set needs at least one lab test or add-on marker',
  mixedOrderSetMethods: 'All lab tests of an order set must use the same collection method',
  orderSetMethodRequired: 'collection_method is required when the order set has only add-on markers',
  immediateNotReschedulable: 'Order was created for immediate processing and cannot be rescheduled',
  activateByInPast: 'activate_by cannot be in the past',
  resendNeedsSelection: 'Provide order_ids or a start_at/end_at range',
  simulationProductionOnly: 'Order simulation is only available in the sandbox environment',
  drawOnlyOnSite: 'Draw completed can only be set for on_site_collection orders',
  dobInFuture: 'Date of birth cannot be in the future',
  minorsDisabled: 'Ordering lab tests for patients under 18 is not enabled for this team',
  minorNeedsProxy: 'medical_proxy is required for patients under 18',
  fictionalPhone: 'Phone number is not correct',
  activateByNotFuture: 'activate_by must be today or a date in the future',
  appointmentOrderNotFound: "This order doesn't exist.",
  appointmentNotFound: 'Appointment not found',
  notPhlebotomyOrder: 'Appointments of this kind need an at_home_phlebotomy order',
  notPscOrder: 'Appointments of this kind need a walk_in_test order',
  bookingKeyInvalid: 'Invalid booking key',
  bookingKeyExpired: 'Booking key has expired',
  bookingKeyUsed: 'Booking key has already been used',
  slotTaken: 'The selected slot is no longer available',
  appointmentExists: 'Order already has an active appointment; reschedule or cancel it instead',
  appointmentNotActive: 'Appointment is not active',
  appointmentStarted: 'Appointment has already started',
  unknownCancellationReason: 'Unknown cancellation reason',
  noPscSlots: 'No appointment slots available',
  pscNeedsPlace: 'Provide zip_code or site_codes',
  labNotFound: 'Lab not found',
  markersOrProviderIds: 'Either marker_ids or provider_ids must be provided',
  markersOneLab: 'All markers of a lab test must belong to the same lab',
  markerNotFound: 'Marker not found',
  invalidCursor: 'Invalid cursor',
  orderWithoutAddress: 'The order has no address to search around',
  testkitNotRegistered: 'The testkit has not been registered yet (POST /v3/order/testkit/register)',
  labAccountNotFound: 'Lab account not found',
  payorSearchNeedsName: 'Provide insurance_name or provider_payor_id',
  payorDeprecatedSearchNeedsName: 'Provide insurance_name or provider_id',
  payorProviderPair: 'provider and provider_payor_id go together',
  compendiumNeedsCriteria: 'Provide query, cpt_codes or loinc_set_hash',
  convertNeedsSource: 'Provide lab_test_id or provider_ids',
  convertOneSource: 'Provide either lab_test_id or provider_ids, not both',
  unmatchedNotFound: 'Unmatched result not found',
  unmatchedRunNotFound: 'Unmatched result test run not found',
  unmatchedAlreadyResolved: 'This unmatched result has already been resolved',
  unmatchedNeedsOrder: 'Provide order_id, or a user_id with exactly one candidate order',
  unmatchedOrderOtherUser: 'The order does not belong to the given user',
  unmatchedRunLimit: 'Sandbox unmatched result tests are limited to 1000 runs per team environment',
  parserJobNotFound: 'Lab report parser job not found',
  parserLimit: 'Sandbox lab report parsing is limited to 300 reports. Failed jobs do not count towards the limit.',
  parserJobLimit: 'Sandbox lab report parsing keeps at most 1000 jobs per team environment',
  parserNoFile: 'Upload at least one file',
  runNoUser: 'The team has no user to place managed orders for',
  runUnmatchedLimit: 'The team environment already holds 1000 unmatched results',
} as const;

/** Texts with a variable part. */
export const LAB_TEXTS = {
  labTestNotFoundId: (id: string) => `${LAB_MESSAGES.labTestNotFound}: ${id}`,
  labTestInactive: (id: string) => `Lab test ${id} is not active`,
  notTestkit: (id: string) => `Lab test ${id} is not a testkit lab test`,
  methodMismatch: (given: string, method: string) => `collection_method ${given} does not match the lab test's method ${method}`,
  orderSetMethodMismatch: (given: string, method: string) => `collection_method ${given} does not match the lab tests' method ${method}`,
  labMethodUnsupported: (lab: string, method: string) => `${lab} does not support collection method ${method}`,
  testkitNotRegistrable: (status: string) => `A testkit in status ${status} cannot be registered`,
  notReschedulable: (status: string) => `Order in status ${status} cannot be rescheduled`,
  transitionNotAllowed: (from: string, to: string) => `Transition from ${from} to ${to} is not allowed`,
  alreadyFinal: (status: string) => `Order is already in a final status (${status})`,
  unreachable: (method: string, from: string, to: string) => `An order of method ${method} cannot move from ${from} to ${to}`,
  unknownFinalStatus: (status: string) => `Unknown final_status ${status}`,
  finalStatusOtherMethod: (status: string, method: string) => `final_status ${status} does not match the order's collection method ${method}`,
  invalidPhone: (value: string) => `Invalid phone number: ${value}`,
  invalidState: (value: string) => `Invalid state: ${value}`,
  unknownLab: (slug: string) => `Unknown lab: ${slug}`,
  markersNotFound: (ids: readonly number[]) => `Markers not found: ${ids.join(', ')}`,
  labTestCodesNotFound: (labName: string | null, codes: readonly string[]) => `Lab test codes not found${labName ? ` at ${labName}` : ''}: ${codes.join(', ')}`,
  markerNotAtLab: (markerId: number, labName: string) => `Marker ${markerId} is not offered by ${labName}`,
  labNotInCatalogue: (slug: string) => `Lab ${slug} is not available in the sandbox catalogue`,
  requisitionNotAvailable: (orderId: string) => `Requisition form is not available for order - ${orderId}. It is created once the order is sent to the lab.`,
  labelsNotForMethod: (method: string) => `Labels are only available for at_home_phlebotomy and on_site_collection orders, not ${method}`,
  labelCount: (max: number) => `number_of_labels must be between 1 and ${max}`,
  abnNotAvailable: (orderId: string) => `Order ${orderId} has no ABN form`,
  transactionResultsNotAvailable: (id: string) => `Results are not available for order transaction - ${id}. Did you receive a webhook for its orders?`,
  notBookable: (status: string) => `An order in status ${status} cannot book an appointment`,
  resultsNotAvailable: (orderId: string) => `Results are not available for order - ${orderId}. Did you receive a webhook for this order?`,
  teamNotInOrgRegion: (teamId: string, region: string) => `Team ${teamId} is not a team of this org in region ${region}`,
  runRoleMissing: (role: string) => `No order given for role ${role}`,
  runUnknownRole: (role: string) => `Unknown order role ${role}`,
  runOrderNotFound: (role: string, id: string) => `Order ${id} (role ${role}) does not exist in this team`,
  runOrderStatus: (role: string, status: string, required: string) => `Order for role ${role} is ${status}; the case needs ${required}`,
  runLabTestNotFound: (id: string) => `Lab test ${id} does not exist in this team`,
  parserEmptyFile: (name: string) => `The uploaded file ${name} is empty`,
  parserFileType: (name: string) => `Unsupported file type for ${name}: upload a PDF, JPEG or PNG`,
  parserFileTooLarge: (name: string) => `The uploaded file ${name} is larger than 10 MB`,
  icdInvalidFormat: (code: string) => `Invalid ICD-10 code format: ${code}`,
  icdNotBillable: (code: string) => `ICD-10 code ${code} is a category and not billable; use a more specific code`,
  icdUnknown: (code: string) => `Unknown ICD-10 code: ${code}`,
} as const;

/** A labs domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
class LabError extends DomainError {
  constructor(kind: DomainErrorKind, text: string, details?: DomainErrorDetails) {
    super('labs', kind, text, details);
    this.name = 'LabError';
  }
}

export const labNotFound = (text: string) => new LabError('not_found', text);
export const labBadRequest = (text: string) => new LabError('bad_request', text);
export const labTransition = (text: string) => new LabError('transition', text);
export const labInvalid = (loc: Array<string | number>, text: string, input?: unknown) => new LabError('invalid', text, { loc, input });
