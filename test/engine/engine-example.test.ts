/**
 * docs/ENGINE.md's worked example ("Adding an endpoint") is real code: its pieces live in
 * docs/engine-example/ (type-checked in place by `npx tsc -b` through `rootDirs`), and the page
 * must quote each piece verbatim, so the page cannot drift from code that compiles.
 * `scripts/check-engine-example.sh` applies them in a scratch copy and runs the route-table tests.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The lines between `// #region <name>` and the next `// #endregion`. */
function region(path: string, name: string): string {
  const lines = read(path).split('\n');
  const from = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const to = lines.findIndex((l, i) => i > from && l.trim() === '// #endregion');
  if (from < 0 || to < 0) throw new Error(`${path}: no region ${name}`);
  return lines.slice(from + 1, to).join('\n');
}

const PIECES: Array<[string, string]> = [
  ['docs/engine-example/src/state/labs/order-by-sample.ts', 'domain'],
  ['docs/engine-example/src/handlers/labs/order-by-sample-route.ts', 'import'],
  ['docs/engine-example/src/handlers/labs/order-by-sample-route.ts', 'route'],
  ['docs/engine-example/test/labs/order-by-sample.test.ts', 'test'],
];

it('docs/ENGINE.md quotes every piece of its worked example verbatim, in order', () => {
  const page = read('docs/ENGINE.md');
  let after = 0;
  for (const [path, name] of PIECES) {
    const block = `\`\`\`ts\n${region(path, name)}\n\`\`\``;
    const at = page.indexOf(block, after);
    expect(at, `${path} #${name} is not quoted (or is out of order)`).toBeGreaterThanOrEqual(0);
    after = at + block.length;
  }
});

it('docs/ENGINE.md says nothing twice (no two sentences of its prose open alike)', () => {
  // Prose only: code blocks and table rows repeat by nature. A repeated opening (34 characters)
  // caught the paragraph the page once said twice ("`responses` declares every answer: ...").
  const prose = read('docs/ENGINE.md')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/\s+/g, ' ');
  const sentences = prose
    .split(/(?<=[.;])\s+/)
    .map((x) => x.trim())
    .filter((x) => x.length > 60 && !x.startsWith('|'));
  const seen = new Set<string>();
  const repeated = sentences.map((x) => x.slice(0, 34)).filter((k) => (seen.has(k) ? true : (seen.add(k), false)));
  expect(repeated).toEqual([]);
});
