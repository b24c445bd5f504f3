/**
 * The CLI as the persistence tests drive it: started with `--json` (its one start line read), a
 * TestClient over its HTTP port (so the route-table requests and their preconditions run against
 * it), and a SIGKILL that leaves no time for anything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../src/sandbox.js';
import { type CallOptions, requestParts, type TestClient, type TestResponse } from '../support/client.js';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface StartLine {
  url: string;
  management_url: string;
  org_id: string;
  management_key: string;
  teams: Array<{ team_id: string; name: string; region: string; api_keys: { sandbox: string; production: string } }>;
}

export interface RunningCli {
  proc: ChildProcess;
  line: StartLine;
  stderr: () => string;
}

/** Starts the CLI; resolves with its start line, or rejects with what it printed when it exits first. */
export function startCli(args: string[]): Promise<RunningCli> {
  const proc = spawn(process.execPath, cliArgs(['--json', ...args]), { cwd: root, env: { ...process.env, HEALTH_SANDBOX_PORT: '' } });
  let out = '';
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((done, fail) => {
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) done({ proc, line: JSON.parse(out.slice(0, nl)) as StartLine, stderr: () => err });
    });
    proc.once('exit', (code) => fail(new Error(`CLI exited ${code}: ${out} ${err}`)));
  });
}

/** Runs the CLI to its exit: code and stderr. */
export function runCli(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const proc = spawn(process.execPath, cliArgs(args), { cwd: root, env: { ...process.env, HEALTH_SANDBOX_PORT: '' } });
  let stderr = '';
  let stdout = '';
  proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  proc.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  return new Promise((done) => proc.once('exit', (code) => done({ code, stderr, stdout })));
}

export function killNow(cli: RunningCli): Promise<void> {
  return new Promise((done) => {
    cli.proc.once('exit', () => done());
    cli.proc.kill('SIGKILL');
  });
}

/** A TestClient over the CLI's port (the route-table helpers read only `sandbox.world.urls.base` of its sandbox). */
export function remoteClient(line: StartLine): TestClient {
  const apiKey = line.teams[0]?.api_keys.sandbox ?? '';
  const sandbox = { world: { urls: { base: line.url } } } as unknown as Sandbox;
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<TestResponse> => {
    const surface = options.surface ?? 'data';
    const { headers, body } = requestParts(path, options, { apiKey, managementKey: line.management_key });
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(options.query ?? {})) for (const one of Array.isArray(v) ? v : [v]) query.append(k, String(one));
    const qs = query.toString();
    const url = `${surface === 'management' ? line.management_url : line.url}${path}${qs ? `?${qs}` : ''}`;
    const init: RequestInit = { method: method.toUpperCase(), headers };
    if (body !== undefined) init.body = body as BodyInit;
    if (options.redirect) init.redirect = options.redirect;
    const res = await fetch(url, init);
    const bytes = Buffer.from(await res.arrayBuffer());
    const text = bytes.toString('utf8');
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const answered: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      answered[name] = value;
    });
    return { status: res.status, headers: answered, text, body: parsed, bytes };
  };
  const client: TestClient = {
    adapter: 'node',
    sandbox,
    creds: {
      base_url: line.url,
      management_url: line.management_url,
      org_id: line.org_id,
      management_key: line.management_key,
      teams: line.teams,
    },
    apiKey,
    managementKey: line.management_key,
    orgId: line.org_id,
    call,
    get: (path, options) => call('GET', path, options),
    post: (path, body, options) => call('POST', path, { ...options, body }),
    patch: (path, body, options) => call('PATCH', path, { ...options, body }),
    put: (path, body, options) => call('PUT', path, { ...options, body }),
    delete: (path, options) => call('DELETE', path, options),
    mgmt: (method, path, options) => call(method, path, { ...options, surface: 'management' }),
    advance: (seconds) => call('POST', '/_sandbox/clock/advance', { body: { seconds } }),
  };
  return client;
}
