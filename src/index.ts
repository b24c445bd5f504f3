/** Public API of health-sandbox. */
export { createSandbox, DEFAULT_START_AT, type Sandbox, type SandboxOptions, type ResolvedSandboxOptions } from './sandbox.js';
export { createExpressApp, type ExpressAdapterOptions } from './adapters/express.js';
export { createMswHandlers, type MswAdapterOptions } from './adapters/msw.js';
export type { Credentials } from './engine/credentials.js';
export type { SimRequest, SimResponse } from './engine/http-types.js';
export type { EventEnvelope, JournalEntry, EventSubscriber } from './engine/events.js';
export { ROUTES } from './routes.js';
export type { WebhookTransport, TransportRequest, TransportResponse } from './state/webhooks/transport.js';
export type { FileSink } from './state/webhooks/options.js';
