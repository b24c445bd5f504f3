#!/usr/bin/env node
/** `health-sandbox`: starts the express server on a seeded world and prints its credentials. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { CliError, helpText, parseCli } from './adapters/cli-options.js';
import { createExpressApp } from './adapters/express.js';
import { directorySink } from './adapters/file-sink.js';
import { createSandbox, DEFAULT_START_AT } from './sandbox.js';
import { SANDBOX_USER_CAP } from './state/users/users.js';
import type { Credentials } from './engine/credentials.js';

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

async function main(): Promise<void> {
  let options;
  try {
    options = parseCli(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`health-sandbox: ${error.message}\n\n${helpText()}`);
      process.exit(2);
    }
    throw error;
  }
  if (options.help) {
    process.stdout.write(helpText());
    return;
  }
  let adminToken = options.adminToken;
  const notes: string[] = [];
  if (adminToken === undefined && !isLoopback(options.host)) {
    adminToken = randomBytes(18).toString('base64url');
    notes.push(`  Control plane token (bound off loopback): ${adminToken}`);
  } else if (adminToken !== undefined) {
    notes.push('  Control plane: /_sandbox/* needs Authorization: Bearer <admin token>');
  }
  const startAt = options.startAt ?? (options.clock === 'realtime' ? new Date(Math.floor(Date.now() / 1000) * 1000).toISOString() : DEFAULT_START_AT);
  const sandbox = createSandbox({
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
    webhookPrivateNetworks: isLoopback(options.host),
  });
  if (options.users > SANDBOX_USER_CAP) {
    notes.push(`  Note: --users ${options.users} is above the real sandbox's cap of ${SANDBOX_USER_CAP} users per team, so limits are off.`);
  } else if (!options.limits) {
    notes.push('  Note: limits are off (no 50-user cap).');
  }
  if (options.dataDir !== undefined) notes.push(`  Data directory: ${options.dataDir}`);
  notes.push(`  Seed ${options.seed}, clock ${options.clock}${options.clock === 'realtime' ? ` x${options.timeScale}` : ''}, sandbox time ${sandbox.world.clock.iso()}`);
  const app = createExpressApp(sandbox);
  const server = app.listen(options.port, options.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    process.stderr.write(`health-sandbox: cannot listen on ${options.host}:${options.port}: ${error.code ?? error.message}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    const { port } = server.address() as AddressInfo;
    const host = options.host.includes(':') ? `[${options.host}]` : options.host;
    const base = `http://${host}:${port}`;
    sandbox.setUrls({ base, management: `${base}/management` });
    process.stdout.write(`${banner(sandbox.credentials(), notes)}\n`);
  });
  const stop = () => {
    sandbox.close();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
