/** The link area (issue 12): link tokens, connect flows, the sandbox's Link widget pages and its launcher (issue 31). */
import type { Area } from '../../engine/area.js';
import { bulkRoutes } from './bulk.js';
import { linkLauncherRoutes } from './launcher.js';
import { linkRoutes } from './link.js';
import { linkWidgetRoutes } from './widget.js';

export const linkArea: Area = {
  name: 'link',
  routes: [...linkRoutes, ...bulkRoutes, ...linkWidgetRoutes, ...linkLauncherRoutes],
};
