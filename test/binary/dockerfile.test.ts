/**
 * The container image on paper (issue 44): no base image can be pulled on these machines, so the
 * Dockerfile is checked instead of built. It copies only what `npm run build:binary` writes (and
 * the .dockerignore lets exactly that into the build context), its entry point is the copied
 * binary, and its settings are flags the binary accepts. test/binary/binary.test.ts runs the
 * built binary with the image's settings (`services:` recipe of docs/other-languages.md).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envName, FLAGS, parseCli } from '../../src/adapters/cli-options.js';
import { readDockerfile, readDockerignore } from './dockerfile.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** What scripts/build-binary.mjs writes for Linux (its `binary`), relative to the repository. */
const BUILD_OUTPUTS = ['dist-bin/health-sandbox'];

describe('Dockerfile', () => {
  const docker = readDockerfile();

  it('copies only files the binary build produces, from one pinned-by-name distroless base', () => {
    expect(docker.from).toEqual(['gcr.io/distroless/cc-debian12:nonroot']);
    expect(docker.copies.length).toBeGreaterThan(0);
    for (const copy of docker.copies) {
      expect(copy.instruction).toBe('COPY');
      for (const source of copy.sources) expect(BUILD_OUTPUTS).toContain(source);
    }
    // The build script names that output: a renamed binary fails here, not in someone's docker build.
    expect(readFileSync(resolve(root, 'scripts/build-binary.mjs'), 'utf8')).toContain(
      "join(out, process.platform === 'win32' ? 'health-sandbox.exe' : 'health-sandbox')",
    );
    expect(readFileSync(resolve(root, 'package.json'), 'utf8')).toContain('"build:binary": "node scripts/build-binary.mjs"');
  });

  it('the .dockerignore lets in exactly the files it copies', () => {
    const patterns = readDockerignore();
    expect(patterns[0]).toBe('*');
    const admitted = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
    expect(admitted.sort()).toEqual(docker.copies.flatMap((c) => c.sources).sort());
  });

  it('runs the copied binary with settings the CLI accepts (every ENV is a flag; off loopback, so the admin token is documented)', () => {
    const destination = docker.copies[0]!.destination;
    expect(docker.entrypoint).toEqual([destination]);
    const known = new Set([...FLAGS.map((f) => envName(f.name)), envName('json'), envName('quiet'), envName('request-log-bodies')]);
    for (const key of Object.keys(docker.env)) expect(known, key).toContain(key);
    const options = parseCli(docker.cmd, docker.env);
    expect(options).toMatchObject({ host: '0.0.0.0', port: Number(docker.expose[0]), clock: 'manual', feed: 'off' });
    expect(readFileSync(resolve(root, 'Dockerfile'), 'utf8')).toContain('HEALTH_SANDBOX_ADMIN_TOKEN');
  });
});
