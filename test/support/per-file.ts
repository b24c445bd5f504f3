/**
 * Runs around every test file (vitest `setupFiles`). The suite runs without module isolation
 * (`isolate: false`: each worker loads the sandbox, the SDK and msw once, not once per file), so
 * what one file opens must be closed when it ends, not when the worker exits.
 */
import { afterAll } from 'vitest';
import { closeClients } from './client.js';

afterAll(closeClients);
