/** A test client with a fixed wall clock and a timer that ticks 2 ms per reading, and a control client over it. */
import type { SandboxOptions } from '../../src/index.js';
import { SandboxControl } from '../../src/testing/control-client.js';
import { type AnyAdapter, createClient, type TestClient } from '../support/client.js';

export const WALL = Date.parse('2030-01-01T00:00:00Z');

export function journalClient(adapter: AnyAdapter, options: SandboxOptions = {}): { c: TestClient; control: SandboxControl } {
  let tick = 0;
  const c = createClient(adapter, {
    seed: 7,
    users: 2,
    usersElsewhere: 0,
    feed: 'off',
    logger: () => undefined,
    ...options,
    requests: { wallClock: () => WALL, timer: () => (tick += 2), ...options.requests },
  });
  const control = new SandboxControl(async (method, path, body) => {
    const res = await c.call(method, path, body === undefined ? {} : { body });
    return { status: res.status, body: res.body };
  }, 'http://sandbox.test');
  return { c, control };
}
