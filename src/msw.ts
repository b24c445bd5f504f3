/** `health-sandbox/msw`: msw 2 request handlers, for `setupServer` (Node) and `setupWorker` (browser). */
export { createMswHandlers, createFetchHandler, type MswAdapterOptions } from './adapters/msw.js';
