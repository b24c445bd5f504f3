/** Public API of health-sandbox. */
export { createSandbox, DEFAULT_START_AT, type Sandbox, type SandboxOptions, type ResolvedSandboxOptions } from './sandbox.js';
export { createExpressApp, type ExpressAdapterOptions } from './adapters/express.js';
export { createMswHandlers, type MswAdapterOptions } from './adapters/msw.js';
export type { Credentials } from './engine/credentials.js';
export type { SimRequest, SimResponse } from './engine/http-types.js';
export type { EventEnvelope, JournalEntry, EventSubscriber } from './engine/events.js';
export { ROUTES } from './routes.js';
export { createNodeListener, createNodeServer, type NodeAdapterOptions } from './adapters/node-http.js';
export { answerHeadErrorsWithJson } from './adapters/express.js';
export { LIMITS, LIMIT_MESSAGES } from './engine/limits.js';
export { GUARD_MESSAGES, type NetworkOptions } from './engine/guard.js';
