/**
 * House rule: nothing in src/ outside src/adapters/ and src/cli.ts imports a Node built-in or
 * uses Buffer, so the core runs in a browser (the browser test proves it by running it). The rule
 * is `nodeInCore` (test/support/architecture-rules.ts, checked on a violating file by
 * architecture-rules.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { check, nodeInCore } from '../support/architecture-rules.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

it('the core imports no Node built-in and uses no Buffer', () => {
  const tree = new Map(files(join(root, 'src')).map((f) => [relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')]));
  expect(check(nodeInCore, tree)).toEqual([]);
});
