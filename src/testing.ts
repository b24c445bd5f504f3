/**
 * `health-sandbox/testing`: the sandbox in a test suite.
 *
 * - `startSandbox(options)` starts the express server on a free 127.0.0.1 port in this process
 *   and returns its URLs, the sandbox itself and the control client;
 * - `connectSandbox(url, { adminToken })` gives the same control client over HTTP for a server
 *   started elsewhere (the CLI in CI: `health-sandbox --port 0 --json`).
 *
 * Both speak the control plane (`/_sandbox/*`), so a test written against one runs against the
 * other. Node only (it opens a port); in a browser use `health-sandbox/msw` with `setupWorker`.
 */
import { createNodeServer } from './adapters/node-http.js';
import { isScenarioPath, readScenarioFile } from './adapters/scenario-file.js';
import { createSandbox, type Sandbox, type SandboxOptions } from './sandbox.js';
import type { ScenarioInput } from './scenario/schema.js';
import { SandboxControl, type ControlTransport } from './testing/control-client.js';

export {
  SandboxControl,
  ControlError,
  type ControlTransport,
  type EventQuery,
  type PullOutcome,
  type ReceiverAnswer,
  type ReceiverHandle,
  type Since,
} from './testing/control-client.js';
export type { AttemptFilter, EndpointFilter, LabControls, MessageFilter, WebhookControls } from './testing/control-groups.js';
export type { EhrControls, OrgControls, PipelineControls, TeamControls } from './testing/control-org.js';
export type { FaultControls, FaultRuleSpec } from './testing/control-faults.js';

export type { RequestControls, RequestFilter, RequestMatch } from './testing/control-requests.js';
export type * from './testing/types.js';
export { ScenarioError } from './scenario/parse.js';
export type { Scenario, ScenarioInput } from './scenario/schema.js';
export type { Duration } from './engine/duration.js';

export interface StartOptions extends Omit<SandboxOptions, 'scenario' | 'baseUrl' | 'managementUrl'> {
  /** A scenario: an object, or a path to a JSON or YAML file. */
  scenario?: ScenarioInput | string;
}

export interface StartedSandbox extends SandboxControl {
  /** The in-process sandbox (advance, subscribe, world) for what the control plane does not show. */
  readonly sandbox: Sandbox;
  /** Stops the server and the sandbox's timers. */
  close(): Promise<void>;
}

function fetchTransport(base: string, adminToken?: string): ControlTransport {
  return async (method, path, body) => {
    const headers: Record<string, string> = {};
    if (adminToken) headers.authorization = `Bearer ${adminToken}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? 'application/json').includes('json');
    return { status: res.status, body: text === '' ? null : json ? (JSON.parse(text) as unknown) : text };
  };
}

function scenarioOf(value: ScenarioInput | string | undefined): ScenarioInput | string | undefined {
  return isScenarioPath(value) ? readScenarioFile(value) : value;
}

/** Starts the sandbox server on a free 127.0.0.1 port; resolves once its scenario is applied. */
export async function startSandbox(options: StartOptions = {}): Promise<StartedSandbox> {
  const scenario = scenarioOf(options.scenario);
  // The scenario is loaded once the URLs are known (its webhook receivers point at this server).
  const sandbox = createSandbox({ logger: () => undefined, ...options, scenario: undefined });
  const server = createNodeServer(sandbox);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  sandbox.setUrls({ base: url, management: `${url}/management` });
  try {
    if (scenario !== undefined) await sandbox.loadScenario(scenario);
  } catch (error) {
    sandbox.close();
    server.close();
    throw error;
  }
  const control = new SandboxControl(fetchTransport(url, options.adminToken), url);
  return Object.assign(control, {
    sandbox,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        server.closeAllConnections?.();
      }),
  });
}

/** The control client of a sandbox server running elsewhere (e.g. the CLI in CI). */
export function connectSandbox(url: string, options: { adminToken?: string } = {}): SandboxControl {
  const base = url.replace(/\/+$/, '');
  return new SandboxControl(fetchTransport(base, options.adminToken), base);
}

/** Reads a scenario file (JSON or YAML) and checks it (a ScenarioError names the path). */
export { readScenarioFile };
