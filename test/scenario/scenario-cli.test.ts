/**
 * Shipped scenarios boot from the CLI (`--scenario`, and every file through `PUT
 * /_sandbox/scenario` on a CLI server), and `--json` / the banner report the
 * seed, world and feed of the world the scenario built, not the flags' defaults (issue 17).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { parseScenario, parseScenarioText } from '../../src/scenario/parse.js';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILES = readdirSync(resolve(root, 'scenarios')).filter((f) => /\.(json|ya?ml)$/.test(f) && f !== 'scenario.schema.json');

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

interface StartLine {
  url: string;
  management_key: string;
  teams: Array<{ name: string; api_keys: { sandbox: string } }>;
  seed: number;
  world: string;
  feed: string;
  clock: { now: string; mode: string };
}

/** Starts the CLI; resolves with all stdout once `done(out)` holds, or with what came when it exits first. */
function cli(args: string[], done: (out: string) => boolean): Promise<{ out: string; err: () => string }> {
  const child = spawn(process.execPath, cliArgs(args), { cwd: root, env: { ...process.env, HEALTH_SANDBOX_PORT: '' } });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolveOut, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (done(out)) resolveOut({ out, err: () => err });
    });
    child.on('exit', () => resolveOut({ out, err: () => err }));
    child.on('error', reject);
  });
}

const json = async (file: string) => {
  const run = await cli(['--port', '0', '--json', '--clock', 'manual', '--scenario', `scenarios/${file}`], (out) => out.includes('\n'));
  expect(run.out.split('\n').filter(Boolean), `${file}: ${run.err()}`).toHaveLength(1);
  return JSON.parse(run.out) as StartLine;
};

describe('--scenario from the CLI', () => {
  it('--json reports the seed, world, feed and clock the scenario set (afib: seed 7, empty world; connections-in-error: feed off)', async () => {
    const [afib, errors] = await Promise.all([json('afib-apple-health.yaml'), json('connections-in-error.json')]);
    expect(afib).toMatchObject({ seed: 7, world: 'empty', feed: 'auto', clock: { now: '2026-03-02T08:00:00.000Z', mode: 'manual' } });
    // The credentials printed are those of the world built: seed 7.
    expect(afib.management_key).toBe(createSandbox({ world: 'empty', seed: 7 }).credentials().management_key);
    expect(errors).toMatchObject({ seed: 1, world: 'empty', feed: 'off' });
    // Every shipped file loads into a CLI server (PUT /_sandbox/scenario, one after another) with its teams and users.
    for (const file of FILES) {
      const text = readFileSync(resolve(root, 'scenarios', file), 'utf8');
      const put = await fetch(`${afib.url}/_sandbox/scenario`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(parseScenarioText(text)),
      });
      expect(put.status, `${file}: ${await put.clone().text()}`).toBe(200);
      const scenario = parseScenario(text);
      expect(((await put.json()) as { seed: number }).seed, file).toBe(scenario.seed ?? 1);
      const creds = (await (await fetch(`${afib.url}/_sandbox/credentials`)).json()) as StartLine;
      for (const t of scenario.teams)
        expect(
          creds.teams.map((x) => x.name),
          file,
        ).toContain(t.name);
      const res = await fetch(`${afib.url}/v2/user?limit=100`, {
        headers: { 'x-service-api-key': creds.teams[0]?.api_keys.sandbox ?? '' },
      });
      const users = ((await res.json()) as { users: Array<{ client_user_id: string }> }).users.map((u) => u.client_user_id);
      expect(users.sort(), file).toEqual(
        scenario.users
          .filter((u) => u.team === undefined)
          .map((u) => u.client_user_id)
          .sort(),
      );
    }
  });

  it('the banner names the seed, world and feed of the world built, after the scenario loaded', async () => {
    const run = await cli(['--port', '0', '--clock', 'manual', '--scenario', 'scenarios/afib-apple-health.yaml'], (out) =>
      out.includes('sandbox time'),
    );
    expect(run.out).toContain(
      '  Scenario scenarios/afib-apple-health.yaml\n  Seed 7, world empty, feed auto, clock manual, sandbox time 2026-03-02T08:00:00.000Z',
    );
  });
});
