/** Reads the repository's Dockerfile and .dockerignore: the instructions the image tests check. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Dockerfile {
  from: string[];
  /** COPY/ADD: sources (build-context paths) and the destination. */
  copies: Array<{ instruction: string; sources: string[]; destination: string }>;
  env: Record<string, string>;
  entrypoint: string[];
  cmd: string[];
  expose: string[];
}

/** Instructions, continuation lines joined, comments dropped. */
function instructions(text: string): Array<[string, string]> {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const at = l.search(/\s/);
      return [l.slice(0, at).toUpperCase(), l.slice(at).trim()];
    });
}

function execForm(value: string, what: string): string[] {
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === 'string')) throw new Error(`${what} is not an exec-form array: ${value}`);
  return parsed as string[];
}

export function readDockerfile(): Dockerfile {
  const out: Dockerfile = { from: [], copies: [], env: {}, entrypoint: [], cmd: [], expose: [] };
  for (const [name, value] of instructions(readFileSync(resolve(root, 'Dockerfile'), 'utf8'))) {
    if (name === 'FROM') out.from.push(value);
    else if (name === 'COPY' || name === 'ADD') {
      const words = value.split(/\s+/).filter((w) => !w.startsWith('--'));
      out.copies.push({ instruction: name, sources: words.slice(0, -1), destination: words.at(-1) ?? '' });
    } else if (name === 'ENV') {
      for (const [, key, raw] of value.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) out.env[key!] = raw!.replace(/^"|"$/g, '');
    } else if (name === 'ENTRYPOINT') out.entrypoint = execForm(value, 'ENTRYPOINT');
    else if (name === 'CMD') out.cmd = execForm(value, 'CMD');
    else if (name === 'EXPOSE') out.expose.push(...value.split(/\s+/));
  }
  return out;
}

/** The .dockerignore's patterns, in order (`!` re-includes). */
export function readDockerignore(): string[] {
  return readFileSync(resolve(root, '.dockerignore'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}
