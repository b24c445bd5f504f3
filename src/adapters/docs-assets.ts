/**
 * Reads the `/docs` page's files from the swagger-ui-dist package (an optional peer), lazily (first request) and
 * once per file. Node only: the adapters that run in Node install it on their sandbox; without the
 * package it reads nothing and `/docs/assets/*` answers 404 saying so.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Sandbox } from '../sandbox.js';

let dir: string | null | undefined;
const files = new Map<string, Promise<Uint8Array | undefined>>();

function packageDir(): string | null {
  if (dir === undefined) {
    try {
      dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    } catch {
      dir = null;
    }
  }
  return dir;
}

/** A file of swagger-ui-dist (the route allows only its own list of names), or undefined. */
function readDocsAsset(file: string): Promise<Uint8Array | undefined> {
  let hit = files.get(file);
  if (!hit) {
    const root = packageDir();
    hit = root
      ? readFile(join(root, file)).then(
          (b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength),
          () => undefined,
        )
      : Promise.resolve(undefined);
    files.set(file, hit);
  }
  return hit;
}

/** Lets a sandbox served from Node answer `/docs/assets/*`. */
export function installDocsAssets(sandbox: Sandbox): void {
  sandbox.setAssets({ docs: readDocsAsset });
}
