/**
 * The inspector's browser code (src/inspector/main.ts and what it imports) as one minified
 * script, for the page `/_sandbox/ui` to carry inline. scripts/build.mjs puts it in the package
 * (esbuild's `define` of `__HEALTH_SANDBOX_INSPECTOR__`, read by src/handlers/sandbox/ui-app.ts)
 * and vitest.config.ts does the same for the tests, which run src/.
 */
import { build } from 'esbuild';

/** The bundled script's text (ASCII only, `</script` never inside). */
export async function bundleInspector(root) {
  const out = await build({
    absWorkingDir: root,
    entryPoints: ['src/inspector/main.ts'],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'warning',
  });
  return out.outputFiles[0].text.replace(/<\/(script)/gi, '<\\/$1');
}
