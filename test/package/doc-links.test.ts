/**
 * Every relative link of the README and of docs/ (markdown) points at a file or folder of the
 * repository: pages move (the README became a newcomer's page, its reference moved to
 * docs/reference.md), and a link left behind is a dead end for the newcomer who follows it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function markdown(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? markdown(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );
}

it('every relative link of README.md and docs/**/*.md resolves', () => {
  const pages = ['README.md', 'BENCHMARKS.md', ...markdown('docs')];
  const dead: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = (m[1] as string).split('#')[0] as string;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      if (!existsSync(join(root, dirname(page), target))) dead.push(`${page}: ${target}`);
    }
  }
  expect(dead, `dead links (from ${relative(process.cwd(), root) || '.'})`).toEqual([]);
});
