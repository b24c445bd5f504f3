/**
 * Public API of health-sandbox: the engine and its types. Runs in Node and in a browser; the
 * adapters are separate entries so this one pulls in neither msw nor express:
 * `health-sandbox/msw` (createMswHandlers) and `health-sandbox/express` (createExpressApp).
 */
export {
  createSandbox,
  DEFAULT_START_AT,
  type Sandbox,
  type SandboxOptions,
  type ResolvedSandboxOptions,
  type StateSink,
} from './sandbox.js';
export type { LogEntry, SnapshotInfo, WorldDocument } from './engine/persist.js';
export { WorldDocumentError } from './engine/persist-document.js';
export type { Credentials } from './engine/credentials.js';
export type { SimRequest, SimResponse } from './engine/http-types.js';
export type { EventEnvelope, JournalEntry, EventSubscriber } from './engine/events.js';
export { ROUTES } from './routes.js';
export { LIMITS, LIMIT_MESSAGES } from './engine/limits.js';
export { GUARD_MESSAGES, type NetworkOptions } from './engine/guard.js';
export type { WebhookTransport, TransportRequest, TransportResponse } from './state/webhooks/transport.js';
export type { FileSink } from './state/webhooks/options.js';
/** Wire types of the answers (inferred from the schemas the routes declare): type-only. */
export type * from './wire/types.js';
