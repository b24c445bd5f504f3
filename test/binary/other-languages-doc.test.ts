/**
 * docs/other-languages.md (issue 44) stays true to the code: every CLI flag is in its table, every
 * `curl` it shows names a method and path the route table serves, its test files exist, and the
 * README's first screen links to it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FLAGS } from '../../src/adapters/cli-options.js';
import { ROUTES } from '../../src/routes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const page = readFileSync(resolve(root, 'docs/other-languages.md'), 'utf8');

/** A route path (`/_sandbox/receiver/:name`) as a pattern for a concrete one (`/_sandbox/receiver/mine`, `<user_id>`). */
function pattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z_]+/g, '[^/]+')}$`);
}

describe('docs/other-languages.md', () => {
  it('lists every CLI flag', () => {
    for (const flag of FLAGS) expect(page, `--${flag.name}`).toContain(`\`--${flag.name}`);
    for (const flag of ['--json', '--quiet', '--request-log-bodies']) expect(page).toContain(flag);
  });

  it("each curl's method and path is a route the sandbox serves", () => {
    const calls = page
      .split('\n')
      .filter((line) => /^curl .*\$URL\//.test(line))
      .map((line) => ({ method: /-X (\w+)/.exec(line)?.[1] ?? 'GET', path: /\$URL(\/[^\s"?]*)/.exec(line)![1]! }));
    expect(calls.length).toBeGreaterThan(25);
    for (const call of calls) {
      const path = call.path.startsWith('/management/') ? call.path.slice('/management'.length) : call.path;
      const served = ROUTES.some((r) => r.method === call.method && pattern(r.path).test(path));
      expect(served, `${call.method} ${call.path}`).toBe(true);
    }
  });

  it('names test files that exist, and the README links to it near the top', () => {
    for (const [file] of page.matchAll(/test\/binary\/[\w.-]+\.test\.ts/g)) expect(existsSync(resolve(root, file)), file).toBe(true);
    const firstScreen = readFileSync(resolve(root, 'README.md'), 'utf8').split('\n').slice(0, 25).join('\n');
    expect(firstScreen).toContain('(docs/other-languages.md)');
  });
});
