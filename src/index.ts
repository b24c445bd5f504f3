/** Public API of health-sandbox. */
export { createSandbox, DEFAULT_START_AT, type Sandbox, type SandboxOptions, type ResolvedSandboxOptions } from './sandbox.js';
export { createExpressApp, type ExpressAdapterOptions } from './express-adapter.js';
export { createMswHandlers, type MswAdapterOptions } from './msw-adapter.js';
export type { Credentials } from './credentials.js';
export type { SimRequest, SimResponse } from './http-types.js';
export type { EventEnvelope, JournalEntry, EventSubscriber } from './state/events.js';
export { ROUTES } from './routes.js';
