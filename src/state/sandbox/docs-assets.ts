/**
 * The documentation page's assets (`GET /docs/assets/:file`): only the swagger-ui-dist files the
 * page uses, read through the runtime's asset reader (none under msw or in a browser).
 */
import type { World } from '../../engine/world.js';
import { sandboxError } from './errors.js';

/** The files of swagger-ui-dist the page uses, and their content types (nothing else is served). */
const DOCS_ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** One asset's bytes and content type; 404 for a file the page does not use, or without assets in this runtime. */
export async function docsAsset(world: World, file: string): Promise<{ bytes: Uint8Array; type: string }> {
  const type = Object.hasOwn(DOCS_ASSETS, file) ? DOCS_ASSETS[file] : undefined;
  if (!type) throw sandboxError.unknownAsset();
  const read = world.assets.docs;
  const bytes = read ? await read(file) : undefined;
  if (!bytes) throw sandboxError.noAssets();
  return { bytes, type };
}
