/**
 * The error catalogue of the webhooks area: every text the area answers with, used by the code
 * and by the tests. Statuses follow the management OpenAPI (a bad webhook body is a 422
 * `HTTPValidationError`); control-plane answers use the same `{"detail": ...}` shapes.
 */
import { domainErrorOf, type DomainError } from '../domain-error.js';

export const WEBHOOKS_ERRORS = {
  // Management API: endpoints.
  notFound: 'Webhook not found',
  badCursor: 'Unknown next_cursor: pass a value returned by a previous page',
  urlInvalid: 'Endpoint URLs must be valid',
  urlScheme: 'Endpoint URL schemes must be http or https',
  urlSelf:
    "Endpoint URLs must not point at the sandbox's own API or control plane (its test receivers under /_sandbox/receiver/ are allowed)",
  urlLinkLocal: 'Endpoint URLs must not point at link-local or cloud metadata addresses',
  urlUnspecified: 'Endpoint URLs must not point at an unspecified address (0.0.0.0 or ::): use 127.0.0.1 for a local receiver',
  urlPrivate: 'Endpoint URLs must not point at private network addresses while the sandbox is served off loopback',
  urlNotAllowed: 'Endpoint URL host is not in the allowed webhook hosts (--webhook-allow)',
  descriptionControl: 'Control characters are not allowed',
  rateLimitRange: 'Endpoint rate limits must be between 1 and 65535 if set',
  filterTypesEmpty: "filter_types can't be empty: give at least one event type, or null for all",
  filterTypeSyntax: 'Event types are 1 to 256 characters of [a-zA-Z0-9-_.]',
  headerDuplicate: 'Duplicate header name (names are case-insensitive)',
  // Control plane: delivery.
  messageNotFound: 'Message not found',
  endpointNotFound: 'Endpoint not found',
  endpointOtherTeam: 'The endpoint does not belong to the team environment of this message',
  endpointDisabled: 'The endpoint is disabled: enable it (PATCH disabled=false) before resending or recovering',
  recoverTooOld: 'Recovery can go back at most 14 days',
  recoverWindow: 'until must be after since',
  // Control plane: pipeline NDJSON output.
  ndjsonNoDataDir: 'No data directory: start the sandbox with --data-dir <dir> (or createSandbox({ fileSink })) to write NDJSON files',
  ndjsonBadName:
    'Give a file name inside the data directory: letters, digits, ".", "_" and "-", optionally in sub-folders, never ".." or an absolute path',
  ndjsonWriteFailed: 'Cannot write the NDJSON file',
} as const;

export const PIPELINE_ERRORS = {
  teamNotFound: 'Team not found',
  noTeams: 'Give at least one team id',
  sasString: 'Expected an Azure SAS connection string: Endpoint=sb://...;SharedAccessKeyName=...;SharedAccessKey=...',
  entityPath: 'The connection string must not contain an EntityPath: hubs are named by default_event_hub and the matchers',
  prefixOrRegex: 'Give exactly one of event_type_prefix and event_type_regex',
  prefixEmpty: 'event_type_prefix must not be empty',
  badRegex: 'Invalid regular expression',
  hubOrBlob: 'Give exactly one of event_hub and blob_storage',
  hubEmpty: 'event_hub must not be empty',
  preferencesRequired: 'preferences ({preferred, enabled}) are required to create a pipeline',
  noneEnabled: 'Enable at least one destination',
  preferredNotEnabled: 'The preferred destination must be one of the enabled ones',
  enabledNotConfigured: 'is enabled in preferences but not configured',
} as const;

/** Texts with a variable part. */
export const WEBHOOKS_TEXTS = {
  ndjsonWriteFailed: (reason: string) => `${WEBHOOKS_ERRORS.ndjsonWriteFailed}: ${reason}`,
  badRegex: (reason: string) => `${PIPELINE_ERRORS.badRegex}: ${reason}`,
  enabledNotConfigured: (kind: string) => `${kind} ${PIPELINE_ERRORS.enabledNotConfigured}`,
} as const;

/** Builds a webhooks domain error (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts). */
const err = domainErrorOf('webhooks');

/** Typed webhooks errors, with a text of the catalogue (`WEBHOOKS_ERRORS`, `PIPELINE_ERRORS`, `WEBHOOKS_TEXTS`). */
export const webhooksError = {
  /**
   * 422 on a field (the FastAPI shape the management OpenAPI declares). `text` is a catalogue
   * text, or a problem text of the area's checks (`destinationProblem`, `headerProblem`,
   * `normaliseSecret`), each built from catalogue pieces.
   */
  invalidField: (loc: Array<string | number>, text: string, input?: unknown): DomainError => err('invalid', text, { loc, input }),
  webhookNotFound: (): DomainError => err('not_found', WEBHOOKS_ERRORS.notFound),
  endpointNotFound: (): DomainError => err('not_found', WEBHOOKS_ERRORS.endpointNotFound),
  messageNotFound: (): DomainError => err('not_found', WEBHOOKS_ERRORS.messageNotFound),
  endpointDisabled: (): DomainError => err('conflict', WEBHOOKS_ERRORS.endpointDisabled),
  endpointOtherTeam: (): DomainError => err('not_found', WEBHOOKS_ERRORS.endpointOtherTeam),
  ndjsonNoDataDir: (): DomainError => err('conflict', WEBHOOKS_ERRORS.ndjsonNoDataDir),
  ndjsonWriteFailed: (reason: string): DomainError => err('failed', WEBHOOKS_TEXTS.ndjsonWriteFailed(reason)),
  pipelineTeamNotFound: (): DomainError => err('not_found', PIPELINE_ERRORS.teamNotFound),
} as const;
