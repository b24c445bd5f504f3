/**
 * The steps of the CLI's start (src/cli.ts `main`): the server's modules loaded late, the saved
 * world read under the state file's lock, the scenario file, the control plane's token, the
 * sandbox built, the terminal's log and progress line, the banner's notes on the options.
 */
import { createRequire } from 'node:module';
import type { parseCli } from './cli-options.js';
import { terminal, watchAdvances, withBuildProgress } from './progress.js';
import { requestLogger } from './request-log.js';
import type { Scenario } from '../scenario/schema.js';
import type { Sandbox } from '../sandbox.js';

export type CliOptions = ReturnType<typeof parseCli>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** The sandbox and the server's modules, loaded only once a server is to start (--help and a bad flag answer without them). */
export async function serverModules() {
  const [
    { directorySink },
    { createNodeServer, stopServer },
    { createNodeTransport },
    { readScenarioFile },
    { ScenarioError },
    { createSandbox, DEFAULT_START_AT },
    { SANDBOX_USER_CAP },
    { feedListeners, feedModeOf, feedNote },
    { readStateFile, readWorldFile, stateFileSink, StateFileError },
    { checkWritable, lockStateFile, StateLockError },
  ] = await Promise.all([
    import('./file-sink.js'),
    import('./node-http.js'),
    import('./node-transport.js'),
    import('./scenario-file.js'),
    import('../scenario/parse.js'),
    import('../sandbox.js'),
    import('../state/users/users.js'),
    import('../state/sandbox/advance-report.js'),
    import('./state-file.js'),
    import('./state-lock.js'),
  ]);
  return {
    directorySink,
    createNodeServer,
    stopServer,
    createNodeTransport,
    readScenarioFile,
    ScenarioError,
    createSandbox,
    DEFAULT_START_AT,
    SANDBOX_USER_CAP,
    feedListeners,
    feedModeOf,
    feedNote,
    readStateFile,
    readWorldFile,
    stateFileSink,
    StateFileError,
    checkWritable,
    lockStateFile,
    StateLockError,
  };
}
export type Modules = Awaited<ReturnType<typeof serverModules>>;

/**
 * The state file's lock first: a second server on the same file, or one that cannot write there,
 * stops here (exit 2) before it reads, writes or listens. Then the saved world: the state file's
 * (when it exists) or the world file's; a bad one is refused: exit 2, the file untouched.
 */
export function savedWorld(options: CliOptions, m: Modules) {
  if (options.stateFile !== undefined) {
    try {
      m.lockStateFile(options.stateFile);
      m.checkWritable(options.stateFile);
    } catch (error) {
      if (!(error instanceof m.StateLockError)) throw error;
      process.stderr.write(`health-sandbox: ${error.message}\n`);
      process.exit(2);
    }
  }
  let from;
  try {
    from = options.stateFile !== undefined ? m.readStateFile(options.stateFile) : undefined;
    if (from === undefined && options.worldFile !== undefined) from = m.readWorldFile(options.worldFile);
  } catch (error) {
    if (!(error instanceof m.StateFileError)) throw error;
    process.stderr.write(`health-sandbox: ${error.message}\n`);
    process.exit(2);
  }
  const stateSink = options.stateFile !== undefined ? m.stateFileSink(options.stateFile) : undefined;
  return { from, stateSink };
}

/** The --scenario file, or exit 2 with its problems. */
export function scenarioOrExit(options: CliOptions, m: Modules): Scenario | undefined {
  if (options.scenario === undefined) return undefined;
  try {
    return m.readScenarioFile(options.scenario);
  } catch (error) {
    if (!(error instanceof m.ScenarioError)) throw error;
    process.stderr.write(`health-sandbox: --scenario: ${error.problems.join('; ')}\n`);
    process.exit(2);
  }
}

/** The control plane's token: the caller's, or one generated when bound off loopback (noted for the banner). */
export function adminTokenOf(options: CliOptions, notes: string[]): { adminToken: string | undefined; generatedToken: string | undefined } {
  let adminToken = options.adminToken;
  if (adminToken === undefined && !isLoopback(options.host)) {
    // node:crypto only here: loading it costs every start a few ms (BENCHMARKS.md, "Start-up").
    const { randomBytes } = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
    adminToken = randomBytes(18).toString('base64url');
    notes.push(`  Control plane token (bound off loopback): ${adminToken}`);
  } else if (adminToken !== undefined) {
    notes.push(
      '  Control plane: /_sandbox/* needs Authorization: Bearer <admin token>; open /_sandbox/ui?token=<admin token> to sign a browser in',
    );
  }
  return { adminToken, generatedToken: options.adminToken === undefined ? adminToken : undefined };
}

/** What the sandbox is built from besides the options. */
export interface BuildInputs {
  options: CliOptions;
  m: Modules;
  saved: ReturnType<typeof savedWorld>;
  adminToken: string | undefined;
  progress: ((text: string) => void) | undefined;
}

/** Builds the sandbox (a progress line on a terminal); deliveries go through a pipelined keep-alive transport the shutdown can abort. */
export function buildSandbox({ options, m, saved, adminToken, progress }: BuildInputs) {
  const startAt =
    options.startAt ?? (options.clock === 'realtime' ? new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() : m.DEFAULT_START_AT);
  const deliveries = m.createNodeTransport();
  const { from, stateSink } = saved;
  const sandbox = withBuildProgress(options.users, progress, () =>
    m.createSandbox({
      webhookTransport: deliveries.transport,
      ...(options.deliveryWindow !== undefined ? { deliveryWindow: options.deliveryWindow } : {}),
      seed: options.seed,
      users: options.users,
      clock: options.clock,
      timeScale: options.timeScale,
      startAt,
      limits: options.limits,
      adminToken,
      ...(options.dataDir !== undefined ? { fileSink: m.directorySink(options.dataDir) } : {}),
      ...(options.deliveryTimeout !== undefined ? { deliveryTimeout: options.deliveryTimeout } : {}),
      ...(options.webhookAllow !== undefined ? { webhookAllow: options.webhookAllow } : {}),
      world: options.world,
      feed: options.feed,
      labsProgression: options.labsProgression,
      webhookPrivateNetworks: isLoopback(options.host),
      requests: { size: options.requestLogSize, bodies: options.requestLogBodies },
      ...(from !== undefined ? { from } : {}),
      ...(stateSink !== undefined ? { stateSink } : {}),
    }),
  );
  return { sandbox, deliveries };
}

/** The request log and the progress line; they share the terminal: a log line never runs into the progress line. */
export function attachTerminal(sandbox: Sandbox, options: CliOptions, progress: ((text: string) => void) | undefined) {
  const term = progress ? terminal(progress) : undefined;
  const stopProgress = term ? watchAdvances(sandbox, term) : () => undefined;
  const log = requestLogger(
    options.log ?? (process.stderr.isTTY ? 'pretty' : 'off'),
    term ? term.line : (line) => process.stderr.write(line),
    process.stderr.isTTY,
  );
  if (log) {
    sandbox.requests.subscribe(log);
    // Test-receiver deliveries outside an advance (a realtime clock; no advance line follows them): summed up each second.
    setInterval(() => {
      if (!sandbox.world.scheduler.running) log.flush();
    }, 1000).unref();
  }
  return { stopProgress, log };
}

/** The banner's notes on limits, the data directory and CORS. */
export function optionNotes(options: CliOptions, m: Modules, notes: string[]): void {
  if (options.users > m.SANDBOX_USER_CAP) {
    notes.push(
      `  Note: --users ${options.users} is above the real sandbox's cap of ${m.SANDBOX_USER_CAP} users per team, so limits are off.`,
    );
  } else if (!options.limits) {
    notes.push('  Note: limits are off (no 50-user cap).');
  }
  if (options.dataDir !== undefined) notes.push(`  Data directory: ${options.dataDir}`);
  if (options.cors !== undefined)
    notes.push(
      `  CORS: ${options.cors === true ? 'any origin (API routes; the control plane only for listed origins)' : options.cors.join(', ')}`,
    );
}
