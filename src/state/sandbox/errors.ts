/**
 * The sandbox (control plane) area's error catalogue: the clock's texts, and the typed error its
 * domain functions raise (statuses and bodies: `DOMAIN_ERROR_STATUS`, src/state/domain-error.ts).
 */
import { DURATION_HELP } from '../../engine/duration.js';
import { domainErrorOf, type DomainError } from '../domain-error.js';

/** The most one advance may move the clock: a bounded run of jobs, and a time `Date` can still show. */
export const MAX_ADVANCE_SECONDS = 366 * 86400;

export const SANDBOX_ERRORS = {
  // The clock.
  oneAmount: 'Give exactly one of seconds, duration (90s, 15m, 2h, 3d or ISO 8601 such as P1DT2H) or until (ISO time)',
  badDuration: `Invalid duration: ${DURATION_HELP}`,
  badUntil: 'Invalid ISO time',
  backwards: 'The clock only moves forward',
  tooFar: `One advance moves the clock at most ${MAX_ADVANCE_SECONDS} seconds (366 days); advance in steps`,
  // The documentation page's assets (`GET /docs/assets/:file`).
  unknownAsset: 'Not Found',
  // The OpenAPI documents by area (`?area=`).
  unknownArea: (areas: readonly string[]) => `Unknown area; the areas: ${areas.join(', ')}`,
  unknownDocumentArea: (areas: readonly string[]) => `Unknown area; this document's areas: ${areas.join(', ')}`,
  noAssets:
    'The documentation assets (swagger-ui-dist) are not available: install the optional swagger-ui-dist package and serve the sandbox with the CLI or the express adapter, or read /openapi.json directly',
} as const;

const err = domainErrorOf('sandbox');

export const sandboxError = {
  clockBackwards: (until: string): DomainError => err('invalid', SANDBOX_ERRORS.backwards, { loc: ['body', 'until'], input: until }),
  unknownAsset: (): DomainError => err('not_found', SANDBOX_ERRORS.unknownAsset),
  noAssets: (): DomainError => err('not_found', SANDBOX_ERRORS.noAssets),
  clockTooFar: (until: string): DomainError => err('invalid', SANDBOX_ERRORS.tooFar, { loc: ['body', 'until'], input: until }),
  /** Faults (issue 28): texts in faults-schema.ts, faults-labs.ts and faults-providers.ts. */
  faultNotFound: (text: string): DomainError => err('not_found', text),
  faultBadRoute: (text: string, route: string): DomainError => err('invalid', text, { loc: ['body', 'match', 'route'], input: route }),
  faultConflict: (text: string): DomainError => err('conflict', text),
  /** A scenario that does not load: one item per problem, at the body, each naming its path in the file. */
  scenarioInvalid: (problems: readonly string[]): DomainError =>
    err('invalid', problems[0] ?? '', { items: problems.map((msg) => ({ loc: ['body'], msg, type: 'value_error' })) }),
  /** `?area=` names no area of the document (`text`: `SANDBOX_ERRORS.unknownArea` or `.unknownDocumentArea`). */
  unknownArea: (text: string, area: string | undefined): DomainError =>
    err('invalid', text, { items: [{ loc: ['query', 'area'], msg: text, type: 'value_error', input: area }] }),
} as const;
