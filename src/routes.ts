/** The route table: every endpoint, once, compiled once. */
import { AREAS } from './areas.js';
import { metaRoutes } from './handlers/sandbox-meta.js';
import type { Route } from './route.js';
import { Router } from './router.js';

export const ROUTES: readonly Route[] = [...AREAS.flatMap((area) => area.routes), ...metaRoutes];

let compiled: Router | undefined;

/** The compiled router (built on first use, shared by every sandbox: routes are immutable). */
export function router(): Router {
  compiled ??= new Router(ROUTES);
  return compiled;
}
