#!/usr/bin/env node
/** `health-sandbox`: serves a seeded world over node:http and prints its credentials. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { CliError, helpText, parseCli } from './adapters/cli-options.js';
import { boundHeapGrowth } from './adapters/heap-growth.js';
import { watchParent } from './adapters/parent-watch.js';
import {
  adminTokenOf,
  attachTerminal,
  buildSandbox,
  type CliOptions,
  type Modules,
  optionNotes,
  savedWorld,
  scenarioOrExit,
  serverModules,
} from './adapters/cli-start.js';

import type { requestLogger } from './adapters/request-log.js';
import type { Scenario } from './scenario/schema.js';
import type { Sandbox } from './sandbox.js';
import type { Credentials } from './engine/credentials.js';

/**
 * How long the first signal waits for requests in flight before closing them: a fallback, as the
 * server closes by itself once their answers are out (tests raise it to prove that).
 */
const SHUTDOWN_GRACE_MS =
  Number(process.env.HEALTH_SANDBOX_SHUTDOWN_GRACE_MS) > 0 ? Number(process.env.HEALTH_SANDBOX_SHUTDOWN_GRACE_MS) : 900;
export function banner(credentials: Credentials, extra: string[]): string {
  const lines = [
    'health-sandbox is running',
    '',
    `  Base URL:        ${credentials.base_url}`,
    `  Management URL:  ${credentials.management_url}`,
    `  Inspector:       ${credentials.base_url}/_sandbox/ui`,
    `  API docs:        ${credentials.base_url}/docs`,
    `  Org id:          ${credentials.org_id}`,
    `  Management key:  ${credentials.management_key}`,
    '',
  ];
  for (const team of credentials.teams) {
    lines.push(`  Team ${team.name} (region ${team.region})`);
    lines.push(`    Team id:                ${team.team_id}`);
    lines.push(`    Sandbox API key:        ${team.api_keys.sandbox}`);
    lines.push(`    Production API key:     ${team.api_keys.production}`);
    lines.push('');
  }
  lines.push(...extra);
  return lines.join('\n');
}

/** The one line `--json` prints at start: what the world actually built has (a scenario may set its seed, world and feed). */
export function startLine(sandbox: Sandbox) {
  const c = sandbox.credentials();
  const o = sandbox.options;
  const w = sandbox.world;
  return {
    url: c.base_url,
    management_url: c.management_url,
    org_id: c.org_id,
    management_key: c.management_key,
    teams: c.teams,
    seed: w.seed,
    world: w.options.world,
    feed: w.options.feed,
    labs_progression: w.options.labsProgression,
    clock: { now: sandbox.world.clock.iso(), mode: o.clock, scale: o.timeScale },
    admin_token: o.adminToken ?? null,
  };
}

/** Writes the pid file and removes it at exit (only if it still names this process). */
function writePidFile(path: string): void {
  writeFileSync(path, `${process.pid}\n`);
  process.on('exit', () => {
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
    } catch {
      // Already gone.
    }
  });
}

/** `certify-receiver`: a command of its own, answered without the sandbox. */
async function certifyCommand(): Promise<void> {
  const { certifyCli } = await import('./adapters/certify-cli.js');
  const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
  process.exitCode = await certifyCli(process.argv.slice(3), process.env, write(process.stdout), write(process.stderr));
}

/** The command line's options, or exit 2 with the reason. */
function optionsOrExit(): CliOptions {
  try {
    return parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`health-sandbox: ${error.message} (see --help)\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** `export`: prints the world document of a state or world file. */
async function exportCommand(options: CliOptions): Promise<void> {
  const { exportWorld } = await import('./adapters/world-export.js');
  try {
    process.stdout.write(`${await exportWorld(options)}\n`);
  } catch (error) {
    process.stderr.write(`health-sandbox export: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}

/** What the server does once it listens. */
interface Listening {
  options: CliOptions;
  m: Modules;
  sandbox: Sandbox;
  address: AddressInfo;
  /** The saved world started from, if any: whether it carries its state, and the inputs after it. */
  restored: { state: boolean; inputs: number } | null;
  scenario: Scenario | undefined;
  notes: string[];
  generatedToken: string | undefined;
}

/** The world rebuilt (or exit 2), the scenario applied (or exit 2), with their notes. */
async function readyWorld({ options, m, sandbox, restored, scenario, notes }: Listening): Promise<void> {
  try {
    await sandbox.ready;
  } catch (error) {
    process.stderr.write(`health-sandbox: the saved world cannot be rebuilt: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  if (options.stateFile !== undefined)
    notes.push(
      `  State file: ${options.stateFile} (${restored ? `restored${restored.state ? ' from its state' : ''}, ${restored.inputs} inputs replayed` : 'new'})`,
    );
  else if (restored) notes.push(`  World file: ${options.worldFile}`);
  if (scenario && restored) notes.push(`  Scenario ${options.scenario} not applied: the saved world carries its own`);
  else if (scenario) {
    try {
      await sandbox.loadScenario(scenario);
    } catch (error) {
      process.stderr.write(
        `health-sandbox: --scenario ${options.scenario}: ${error instanceof m.ScenarioError ? error.problems.join('; ') : String(error)}\n`,
      );
      process.exit(2);
    }
    notes.push(`  Scenario ${options.scenario}`);
  }
}

/** Once listening: the URLs set, the world ready, the pid file written, the start line or banner printed. */
async function onListening(l: Listening): Promise<void> {
  const { options, m, sandbox, notes } = l;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const base = `http://${host}:${l.address.port}`;
  sandbox.setUrls({ base, management: `${base}/management` });
  await readyWorld(l);
  // Read from the world built (a scenario sets its own seed, world, feed and clock start).
  const w = sandbox.world;
  notes.push(
    `  Seed ${w.seed}, world ${w.options.world}, feed ${w.options.feed}, clock ${options.clock}${options.clock === 'realtime' ? ` x${options.timeScale}` : ''}, sandbox time ${w.clock.iso()}`,
  );
  // Catch-all webhook endpoints (a scenario's) make the wearable feed run: say so, and how to keep time fast.
  const feedNotice = m.feedNote(m.feedModeOf(sandbox.world), m.feedListeners(sandbox.world));
  if (feedNotice !== null) notes.push(`  Note: ${feedNotice}`);
  if (options.pidFile !== undefined) {
    try {
      writePidFile(options.pidFile);
    } catch (error) {
      process.stderr.write(`health-sandbox: --pid-file ${options.pidFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n`);
      process.exit(2);
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify(startLine(sandbox))}\n`);
  else if (!options.quiet) {
    // A generated token is printed anyway: its sign-in link too (a token given by the caller is not echoed).
    if (l.generatedToken !== undefined)
      notes.push(`  Inspector sign-in:  ${sandbox.credentials().base_url}/_sandbox/ui?token=${l.generatedToken}`);
    process.stdout.write(`${banner(sandbox.credentials(), notes)}\n`);
  }
}

/** What the shutdown stops. */
interface Running {
  options: CliOptions;
  m: Modules;
  server: ReturnType<Modules['createNodeServer']>;
  sandbox: Sandbox;
  deliveries: ReturnType<Modules['createNodeTransport']>;
  stateSink: ReturnType<typeof savedWorld>['stateSink'];
  stopProgress: () => void;
  log: ReturnType<typeof requestLogger>;
}

/**
 * First signal: stop accepting, let requests in flight finish, abort webhook deliveries in
 * flight (an advance waiting on one then ends at once), stop the clock's timers, exit 0 within
 * SHUTDOWN_GRACE_MS at most. A second signal exits at once.
 */
function stopOnSignals({ options, m, server, sandbox, deliveries, stateSink, stopProgress, log }: Running): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'parent exited') => {
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = true;
    if (!options.quiet)
      process.stderr.write(
        `health-sandbox: ${signal}: stopping (requests in flight finish, deliveries are aborted; signal again to exit at once)\n`,
      );
    // Requests in flight get their answer, then their connections close: the exit needs no timer.
    m.stopServer(server, () => process.exit(0));
    sandbox.close();
    stopProgress();
    log?.flush();
    // The file is current after every input (a world past what memory keeps is in the file alone: left as it is).
    if (stateSink) stateSink.close();
    deliveries.close();
    setTimeout(() => {
      server.closeAllConnections();
      process.exit(0);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  watchParent(() => stop('parent exited'));
}

async function main(): Promise<void> {
  if (process.argv[2] === 'certify-receiver') return certifyCommand();
  const options = optionsOrExit();
  if (options.help) {
    process.stdout.write(helpText());
    return;
  }
  if (options.command === 'export') return exportCommand(options);
  const m = await serverModules();
  const saved = savedWorld(options, m);
  const scenario = scenarioOrExit(options, m);
  const notes: string[] = [];
  const { adminToken, generatedToken } = adminTokenOf(options, notes);
  const progress = process.stderr.isTTY && !options.quiet ? (text: string) => process.stderr.write(text) : undefined;
  const { sandbox, deliveries } = buildSandbox({ options, m, saved, adminToken, progress });
  const { stopProgress, log } = attachTerminal(sandbox, options, progress);
  optionNotes(options, m, notes);
  const server = m.createNodeServer(sandbox, { cors: options.cors });
  server.listen(options.port, options.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    const why =
      error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'permission denied' : (error.code ?? error.message);
    process.stderr.write(`health-sandbox: cannot listen on ${options.host}:${options.port}: ${why}\n`);
    process.exit(1);
  });
  const restored = saved.from === undefined ? null : { state: saved.from.state !== undefined, inputs: saved.from.log.length };
  server.on('listening', async () => {
    const address = server.address() as AddressInfo;
    await onListening({ options, m, sandbox, address, restored, scenario, notes, generatedToken });
    // Once serving: the start keeps V8's own heap sizing (a fixed factor costs its build collections).
    boundHeapGrowth();
  });
  stopOnSignals({ options, m, server, sandbox, deliveries, stateSink: saved.stateSink, stopProgress, log });
  // A saved world is being rebuilt (its state loaded, its inputs after it replayed); a signal stops it meanwhile.
  if (restored && !options.quiet)
    process.stderr.write(
      `health-sandbox: restoring ${options.stateFile ?? options.worldFile}: ${restored.state ? 'its state, then ' : ''}${restored.inputs} inputs\n`,
    );
}

void main();
