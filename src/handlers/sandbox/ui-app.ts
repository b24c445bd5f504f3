/**
 * The inspector's browser code (src/inspector/), bundled into one script at build time: esbuild's
 * `define` puts it in place of `__HEALTH_SANDBOX_INSPECTOR__` (scripts/build.mjs for the package,
 * vitest.config.ts for the tests). Code run straight from src/ without either (`npm run dev`)
 * has none, and the page says to build.
 */
declare const __HEALTH_SANDBOX_INSPECTOR__: string | undefined;

/** The bundled inspector script, or undefined when this code was not built with it. */
export function inspectorScript(): string | undefined {
  return typeof __HEALTH_SANDBOX_INSPECTOR__ === 'string' ? __HEALTH_SANDBOX_INSPECTOR__ : undefined;
}
