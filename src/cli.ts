#!/usr/bin/env node
/** `health-sandbox`: serves a seeded world over node:http and prints its credentials. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { CliError, helpText, parseCli } from './adapters/cli-options.js';
import { watchParent } from './adapters/parent-watch.js';

import { terminal, withBuildProgress, watchAdvances } from './adapters/progress.js';
import { requestLogger } from './adapters/request-log.js';
import type { Scenario } from './scenario/schema.js';
import type { Sandbox } from './sandbox.js';
import type { Credentials } from './engine/credentials.js';

/**
 * How long the first signal waits for requests in flight before closing them: a fallback, as the
 * server closes by itself once their answers are out (tests raise it to prove that).
 */
const SHUTDOWN_GRACE_MS =
  Number(process.env.HEALTH_SANDBOX_SHUTDOWN_GRACE_MS) > 0 ? Number(process.env.HEALTH_SANDBOX_SHUTDOWN_GRACE_MS) : 900;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

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

async function main(): Promise<void> {
  if (process.argv[2] === 'certify-receiver') {
    const { certifyCli } = await import('./adapters/certify-cli.js');
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    process.exitCode = await certifyCli(process.argv.slice(3), process.env, write(process.stdout), write(process.stderr));
    return;
  }
  let options;
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`health-sandbox: ${error.message} (see --help)\n`);
      process.exit(2);
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(helpText());
    return;
  }
  if (options.command === 'export') {
    const { exportWorld } = await import('./adapters/world-export.js');
    try {
      process.stdout.write(`${await exportWorld(options)}\n`);
    } catch (error) {
      process.stderr.write(`health-sandbox export: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(2);
    }
    return;
  }
  // The sandbox and the server load only now: --help and a bad flag answer without them.
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
    import('./adapters/file-sink.js'),
    import('./adapters/node-http.js'),
    import('./adapters/node-transport.js'),
    import('./adapters/scenario-file.js'),
    import('./scenario/parse.js'),
    import('./sandbox.js'),
    import('./state/users/users.js'),
    import('./state/sandbox/advance-report.js'),
    import('./adapters/state-file.js'),
    import('./adapters/state-lock.js'),
  ]);
  // The state file's lock first: a second server on the same file, or one that cannot write
  // there, stops here (exit 2) before it reads, writes or listens.
  if (options.stateFile !== undefined) {
    try {
      lockStateFile(options.stateFile);
      checkWritable(options.stateFile);
    } catch (error) {
      if (!(error instanceof StateLockError)) throw error;
      process.stderr.write(`health-sandbox: ${error.message}\n`);
      process.exit(2);
    }
  }
  // A saved world: the state file's (when it exists) or the world file's. A bad one is refused: exit 2, the file untouched.
  let from;
  try {
    from = options.stateFile !== undefined ? readStateFile(options.stateFile) : undefined;
    if (from === undefined && options.worldFile !== undefined) from = readWorldFile(options.worldFile);
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    process.stderr.write(`health-sandbox: ${error.message}\n`);
    process.exit(2);
  }
  const restored = from !== undefined;
  const stateSink = options.stateFile !== undefined ? stateFileSink(options.stateFile) : undefined;
  let scenario: Scenario | undefined;
  if (options.scenario !== undefined) {
    try {
      scenario = readScenarioFile(options.scenario);
    } catch (error) {
      if (!(error instanceof ScenarioError)) throw error;
      process.stderr.write(`health-sandbox: --scenario: ${error.problems.join('; ')}\n`);
      process.exit(2);
    }
  }
  let adminToken = options.adminToken;
  const notes: string[] = [];
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
  const generatedToken = options.adminToken === undefined ? adminToken : undefined;
  const startAt =
    options.startAt ?? (options.clock === 'realtime' ? new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() : DEFAULT_START_AT);
  // Deliveries go through a pipelined keep-alive transport the shutdown can abort.
  const deliveries = createNodeTransport();
  const progress = process.stderr.isTTY && !options.quiet ? (text: string) => process.stderr.write(text) : undefined;
  const sandbox = withBuildProgress(options.users, progress, () =>
    createSandbox({
      webhookTransport: deliveries.transport,
      ...(options.deliveryWindow !== undefined ? { deliveryWindow: options.deliveryWindow } : {}),
      seed: options.seed,
      users: options.users,
      clock: options.clock,
      timeScale: options.timeScale,
      startAt,
      limits: options.limits,
      adminToken,
      ...(options.dataDir !== undefined ? { fileSink: directorySink(options.dataDir) } : {}),
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
  // The log and the progress line share the terminal: a log line never runs into the progress line.
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
  if (options.users > SANDBOX_USER_CAP) {
    notes.push(
      `  Note: --users ${options.users} is above the real sandbox's cap of ${SANDBOX_USER_CAP} users per team, so limits are off.`,
    );
  } else if (!options.limits) {
    notes.push('  Note: limits are off (no 50-user cap).');
  }
  if (options.dataDir !== undefined) notes.push(`  Data directory: ${options.dataDir}`);
  if (options.cors !== undefined)
    notes.push(
      `  CORS: ${options.cors === true ? 'any origin (API routes; the control plane only for listed origins)' : options.cors.join(', ')}`,
    );
  const server = createNodeServer(sandbox, { cors: options.cors });
  server.listen(options.port, options.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    const why =
      error.code === 'EADDRINUSE' ? 'the port is in use' : error.code === 'EACCES' ? 'permission denied' : (error.code ?? error.message);
    process.stderr.write(`health-sandbox: cannot listen on ${options.host}:${options.port}: ${why}\n`);
    process.exit(1);
  });
  server.on('listening', async () => {
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const base = `http://${host}:${port}`;
    sandbox.setUrls({ base, management: `${base}/management` });
    try {
      await sandbox.ready;
    } catch (error) {
      process.stderr.write(
        `health-sandbox: the saved world cannot be rebuilt: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(2);
    }
    if (options.stateFile !== undefined)
      notes.push(`  State file: ${options.stateFile} (${restored ? `restored, ${sandbox.exportWorld().log.length} inputs` : 'new'})`);
    else if (restored) notes.push(`  World file: ${options.worldFile}`);
    if (scenario && restored) notes.push(`  Scenario ${options.scenario} not applied: the saved world carries its own`);
    else if (scenario) {
      try {
        await sandbox.loadScenario(scenario);
      } catch (error) {
        process.stderr.write(
          `health-sandbox: --scenario ${options.scenario}: ${error instanceof ScenarioError ? error.problems.join('; ') : String(error)}\n`,
        );
        process.exit(2);
      }
      notes.push(`  Scenario ${options.scenario}`);
    }
    // Read from the world built (a scenario sets its own seed, world, feed and clock start).
    const w = sandbox.world;
    notes.push(
      `  Seed ${w.seed}, world ${w.options.world}, feed ${w.options.feed}, clock ${options.clock}${options.clock === 'realtime' ? ` x${options.timeScale}` : ''}, sandbox time ${w.clock.iso()}`,
    );
    // Catch-all webhook endpoints (a scenario's) make the wearable feed run: say so, and how to keep time fast.
    const feedNotice = feedNote(feedModeOf(sandbox.world), feedListeners(sandbox.world));
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
      if (generatedToken !== undefined)
        notes.push(`  Inspector sign-in:  ${sandbox.credentials().base_url}/_sandbox/ui?token=${generatedToken}`);
      process.stdout.write(`${banner(sandbox.credentials(), notes)}\n`);
    }
  });
  // First signal: stop accepting, let requests in flight finish, abort webhook deliveries in
  // flight (an advance waiting on one then ends at once), stop the clock's timers, exit 0 within
  // SHUTDOWN_GRACE_MS at most. A second signal exits at once.
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'parent exited') => {
    if (stopping) process.exit(signal === 'SIGINT' ? 130 : 143);
    stopping = true;
    if (!options.quiet)
      process.stderr.write(
        `health-sandbox: ${signal}: stopping (requests in flight finish, deliveries are aborted; signal again to exit at once)\n`,
      );
    // Requests in flight get their answer, then their connections close: the exit needs no timer.
    stopServer(server, () => process.exit(0));
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

void main();
