/** The route table: every endpoint, once, compiled once. */
import { AREAS } from './areas.js';
import type { Route } from './engine/route.js';
import { Router } from './engine/router.js';

export const ROUTES: readonly Route[] = AREAS.flatMap((area) => area.routes);

let compiled: Router | undefined;

/** The compiled router (built on first use, shared by every sandbox: routes are immutable). */
export function router(): Router {
  compiled ??= new Router(ROUTES);
  return compiled;
}
