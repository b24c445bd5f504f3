/**
 * House rule: nothing in src/ outside src/adapters/ and src/cli.ts imports a Node built-in or
 * uses Buffer, so the core runs in a browser (the browser test proves it by running it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The Node-only entries: the adapters, the CLI and the entries that re-export Node adapters. */
const NODE_ONLY = /^src\/(adapters\/|cli\.ts$|express\.ts$|node\.ts$|testing\.ts$)/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it('the core imports no Node built-in and uses no Buffer', () => {
  const problems: string[] = [];
  for (const file of files(join(root, 'src'))) {
    const rel = relative(root, file);
    if (NODE_ONLY.test(rel)) continue;
    const code = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');
    for (const m of code.matchAll(
      /(?:from|import)\s*\(?\s*['"]((?:node:)?(?:fs|path|crypto|os|http|https|net|zlib|url|util|stream|child_process|buffer|events|module|worker_threads)(?:\/[a-z]+)?)['"]/g,
    ))
      problems.push(`${rel}: ${m[1]}`);
    if (/\bBuffer\s*[.(<[]|:\s*Buffer\b/.test(code)) problems.push(`${rel}: Buffer`);
  }
  expect(problems).toEqual([]);
});
