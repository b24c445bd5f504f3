/**
 * Command-line flags of `health-sandbox`, each also readable from `HEALTH_SANDBOX_<NAME>`
 * (e.g. `--time-scale` from `HEALTH_SANDBOX_TIME_SCALE`). Flags win over the environment.
 */
import { DOCUMENT_LIMITS } from '../engine/persist-types.js';
import { parseArgs } from 'node:util';

interface CliOptions {
  port: number;
  host: string;
  seed: number;
  users: number;
  clock: 'manual' | 'realtime';
  timeScale: number;
  startAt: string | undefined;
  limits: boolean;
  adminToken: string | undefined;
  help: boolean;
  /** Directory for file outputs (pipeline NDJSON); none: file outputs are refused. */
  dataDir: string | undefined;
  /** Wall-clock timeout of one webhook attempt, seconds (default 15). */
  deliveryTimeout: number | undefined;
  /** Webhook attempts to one endpoint in flight at once (default 1), pipelined in event order. */
  deliveryWindow?: number | 'auto';
  /** Hosts webhook URLs may point at (none: any allowed destination). */
  webhookAllow: string[] | undefined;
  /** Origins allowed to call from a browser: `true` for any (`--cors` alone), a list, or undefined (off). */
  cors: true | string[] | undefined;
  /** `default` or `empty` (org, teams and keys only). */
  world: 'default' | 'empty';
  /** The periodic wearable feed: auto (only where someone listens), on, off. */
  feed: 'auto' | 'on' | 'off';
  /** How lab orders move: clock (default) or manual (only when simulated, as the real sandbox). */
  labsProgression: 'clock' | 'manual';
  /** A scenario file (JSON or YAML) loaded at start and on every reset. */
  scenario: string | undefined;
  /** One JSON line on stdout at start, nothing else. */
  json: boolean;
  /** Nothing on stdout (errors still go to stderr). */
  quiet: boolean;
  /** A file the process id is written to once listening (removed at exit). */
  pidFile: string | undefined;

  /** The terminal log on stderr: pretty, json (lines) or off; undefined: pretty on a terminal, off otherwise. */
  log: 'pretty' | 'json' | 'off' | undefined;
  /** Requests kept in the journal (default 1000). */
  requestLogSize: number;
  /** Keep every request's bodies in the journal, not only errors'. */
  requestLogBodies: boolean;

  /** `serve` (default) or `export` (print a world document on stdout). */
  command: 'serve' | 'export';
  /** Where the world is kept across restarts (restored when it exists, else written). */
  stateFile: string | undefined;
  /** A world document to start from (`health-sandbox export > world.json`). */
  worldFile: string | undefined;
  /** `export`: the running sandbox to export from. */
  url: string | undefined;
}

interface FlagSpec {
  name: string;
  value: string;
  help: string;
}

export const FLAGS: readonly FlagSpec[] = [
  { name: 'port', value: '<n>', help: 'Port to listen on; 0 picks any free port (the real one is printed). Default 4250.' },
  { name: 'host', value: '<addr>', help: 'Address to bind. Default 127.0.0.1. Off loopback the control plane needs an admin token.' },
  { name: 'seed', value: '<n>', help: 'World seed: the same seed and requests give the same answers. Default 1.' },
  { name: 'users', value: '<n>', help: "Users in the first team's sandbox environment. Default 25; above 50 lifts the sandbox cap." },
  { name: 'clock', value: 'manual|realtime', help: 'manual: time moves only via POST /_sandbox/clock/advance. Default realtime.' },
  { name: 'time-scale', value: '<x>', help: 'Sandbox seconds per wall second in realtime mode. Default 1.' },
  { name: 'start-at', value: '<ISO time>', help: 'Sandbox time at start. Default: now (realtime) or 2026-01-05T09:00:00Z (manual).' },
  { name: 'limits', value: 'on|off', help: 'Enforce the real sandbox limits (50 users per team). Default on.' },
  { name: 'admin-token', value: '<token>', help: 'Require Authorization: Bearer <token> on /_sandbox/*.' },
  {
    name: 'data-dir',
    value: '<dir>',
    help: 'Directory for file outputs (PUT /_sandbox/pipelines/ndjson names a file inside it). Default: none, file outputs refused.',
  },
  { name: 'delivery-timeout', value: '<seconds>', help: 'Timeout of one webhook attempt (wall clock). Default 15, like the real service.' },
  {
    name: 'delivery-window',
    value: '<n>',
    help: 'Webhook attempts to one endpoint in flight at once (1 to 256), pipelined over one connection in event order; auto: adapts to the receiver (1 to 64). Default auto.',
  },
  {
    name: 'webhook-allow',
    value: '<hosts>',
    help: 'Comma list of hosts webhook URLs may point at (*.example.com for subdomains). Default: any but the sandbox itself, link-local and metadata addresses.',
  },
  {
    name: 'cors',
    value: '[origins]',
    help: 'Answer browsers from other origins: alone any origin, or a comma-separated list. Default off.',
  },
  { name: 'world', value: 'default|empty', help: 'default: the seeded demo world; empty: the org, teams and keys only. Default default.' },
  {
    name: 'feed',
    value: 'auto|on|off',
    help: 'Periodic wearable data events: auto (only where a webhook, pipeline or subscriber listens), on, off. Default auto.',
  },
  {
    name: 'labs-progression',
    value: 'clock|manual',
    help: 'Lab orders: clock (step on the sandbox clock) or manual (only POST /v3/order/{id}/test moves them, as the real sandbox). Default clock.',
  },
  { name: 'scenario', value: '<file>', help: 'A scenario file (JSON or YAML, see scenarios/) applied at start and after every reset.' },
  {
    name: 'pid-file',
    value: '<path>',
    help: 'Write the process id to this file once listening (before the --json line), remove it at exit: kill "$(cat <path>)" stops it.',
  },
  {
    name: 'log',
    value: 'pretty|json|off',
    help: 'One line per request on stderr (method, path, status, duration, team; near misses of 404s); json: JSON lines. Default pretty on a terminal, off otherwise.',
  },
  {
    name: 'request-log-size',
    value: '<n>',
    help: 'Requests kept in the request journal (GET /_sandbox/requests, the inspector). Default 1000.',
  },
  {
    name: 'state-file',
    value: '<path>',
    help: 'Keep the world in this file: restored at start when it exists (else written), every accepted change saved before it is applied (503 when it cannot be). One server per file (<path>.lock). A bad file is refused (exit 2), never overwritten.',
  },
  {
    name: 'world-file',
    value: '<file>',
    help: 'Start from a saved world (GET /_sandbox/world, health-sandbox export): its seed, keys and everything in it.',
  },
  {
    name: 'url',
    value: '<url>',
    help: 'health-sandbox export: the running sandbox to export the world of (default http://127.0.0.1:4250; with --state-file: that file instead).',
  },
];

/** Switches without a value (also `HEALTH_SANDBOX_<NAME>=1`). */
const SWITCHES: readonly FlagSpec[] = [
  {
    name: 'json',
    value: '',
    help: 'Print one JSON line at start (URLs, org id, management key, teams and keys, seed, clock) and nothing else on stdout.',
  },
  { name: 'quiet', value: '', help: 'Print nothing on stdout; errors still go to stderr.' },
  {
    name: 'request-log-bodies',
    value: '',
    help: 'Keep the bodies of every request in the request journal (default: of 4xx/5xx answers only).',
  },
];

export function envName(flag: string): string {
  return `HEALTH_SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`;
}

export function helpText(): string {
  const width = Math.max(...FLAGS.map((f) => `--${f.name} ${f.value}`.length));
  const lines = FLAGS.map((f) => `  ${`--${f.name} ${f.value}`.padEnd(width)}  ${f.help}\n  ${''.padEnd(width)}  (env ${envName(f.name)})`);
  return [
    'health-sandbox: a stateful, deterministic simulator of the Health Data and Lab Testing Service.',
    '',
    'Usage: health-sandbox [flags]        (npm start -- [flags])',
    '       health-sandbox export [--url <url> | --state-file <path>] [--admin-token <token>] > world.json',
    '       health-sandbox certify-receiver <url> --secret <whsec_...> [--json] [--timeout <seconds>]',
    '',
    'Flags:',
    ...lines,
    ...SWITCHES.map((f) => `  ${`--${f.name}`.padEnd(width)}  ${f.help}\n  ${''.padEnd(width)}  (env ${envName(f.name)}=1)`),
    `  ${'--help'.padEnd(width)}  Show this help.`,
    '',
  ].join('\n');
}

export class CliError extends Error {}

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new CliError(`--${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new CliError(`--${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function parseCli(all: readonly string[], env: Record<string, string | undefined>): CliOptions {
  const command = all[0] === 'export' ? 'export' : 'serve';
  const argv = command === 'export' ? all.slice(1) : all;
  const options = Object.fromEntries(FLAGS.map((f) => [f.name, { type: 'string' as const }]));
  let parsed;
  // `--cors` may stand alone (any origin): give it the value `*` when no value follows.
  const args = argv.map((a, i) => (a === '--cors' && (i + 1 >= argv.length || (argv[i + 1] ?? '').startsWith('--')) ? '--cors=*' : a));
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        ...options,
        ...Object.fromEntries(SWITCHES.map((f) => [f.name, { type: 'boolean' as const }])),
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const get = (name: string): string | undefined => {
    const v = values[name];
    if (typeof v === 'string') return v;
    return env[envName(name)];
  };
  const clock = get('clock') ?? 'realtime';
  if (clock !== 'manual' && clock !== 'realtime') throw new CliError(`--clock must be manual or realtime, got "${clock}"`);
  const limitsRaw = get('limits') ?? 'on';
  if (limitsRaw !== 'on' && limitsRaw !== 'off') throw new CliError(`--limits must be on or off, got "${limitsRaw}"`);
  const scaleRaw = get('time-scale') ?? '1';
  const timeScale = Number(scaleRaw);
  if (!Number.isFinite(timeScale) || timeScale <= 0) throw new CliError(`--time-scale must be a number above 0, got "${scaleRaw}"`);
  const startAt = get('start-at');
  if (startAt !== undefined && Number.isNaN(Date.parse(startAt))) throw new CliError(`--start-at must be an ISO time, got "${startAt}"`);
  // The same bounds as a world document's start (engine/persist-types.ts DOCUMENT_LIMITS).
  if (startAt !== undefined && !(Date.parse(startAt) >= DOCUMENT_LIMITS.startAtMin && Date.parse(startAt) <= DOCUMENT_LIMITS.startAtMax))
    throw new CliError(`--start-at must be between 1970-01-01 and 9999-12-31, got "${startAt}"`);
  const adminToken = get('admin-token');
  const world = get('world') ?? 'default';
  if (world !== 'default' && world !== 'empty') throw new CliError(`--world must be default or empty, got "${world}"`);
  const feed = get('feed') ?? 'auto';
  if (feed !== 'auto' && feed !== 'on' && feed !== 'off') throw new CliError(`--feed must be auto, on or off, got "${feed}"`);
  const labsProgression = get('labs-progression') ?? 'clock';
  if (labsProgression !== 'clock' && labsProgression !== 'manual')
    throw new CliError(`--labs-progression must be clock or manual, got "${labsProgression}"`);
  const scenario = get('scenario');
  const log = get('log');
  if (log !== undefined && log !== 'pretty' && log !== 'json' && log !== 'off')
    throw new CliError(`--log must be pretty, json or off, got "${log}"`);
  const flag = (name: string): boolean => {
    if (values[name] === true) return true;
    const raw = env[envName(name)];
    return raw !== undefined && raw !== '' && raw !== '0' && raw.toLowerCase() !== 'false';
  };
  return {
    port: integer('port', get('port') ?? '4250', 0, 65535),
    host: get('host') ?? '127.0.0.1',
    seed: integer('seed', get('seed') ?? '1', -2147483648, 2147483647),
    users: integer('users', get('users') ?? '25', 0, 1_000_000),
    clock,
    timeScale,
    startAt,
    limits: limitsRaw === 'on',
    adminToken: adminToken === '' ? undefined : adminToken,
    help: values['help'] === true,
    ...webhookFlags(get),
    cors: parseCors(get('cors')),
    world,
    feed,
    labsProgression,
    scenario: scenario === '' ? undefined : scenario,
    json: flag('json'),
    quiet: flag('quiet'),
    pidFile: get('pid-file') || undefined,

    log,
    requestLogSize: integer('request-log-size', get('request-log-size') ?? '1000', 0, 1_000_000),
    requestLogBodies: flag('request-log-bodies'),

    command,
    ...worldFlags(get),
  };
}

function worldFlags(get: (name: string) => string | undefined): Pick<CliOptions, 'stateFile' | 'worldFile' | 'url'> {
  const nonEmpty = (v: string | undefined): string | undefined => (v === '' ? undefined : v);
  const stateFile = nonEmpty(get('state-file'));
  const worldFile = nonEmpty(get('world-file'));
  const url = nonEmpty(get('url'));
  if (url !== undefined && !/^https?:\/\/[^\s]+$/i.test(url)) throw new CliError(`--url must be an http(s) URL, got "${url}"`);
  return { stateFile, worldFile, url };
}

function webhookFlags(
  get: (name: string) => string | undefined,
): Pick<CliOptions, 'dataDir' | 'deliveryTimeout' | 'deliveryWindow' | 'webhookAllow'> {
  const dataDir = get('data-dir');
  const timeoutRaw = get('delivery-timeout');
  let deliveryTimeout: number | undefined;
  if (timeoutRaw !== undefined) {
    deliveryTimeout = Number(timeoutRaw);
    if (!Number.isFinite(deliveryTimeout) || deliveryTimeout <= 0 || deliveryTimeout > 300) {
      throw new CliError(`--delivery-timeout must be a number of seconds above 0 and at most 300, got "${timeoutRaw}"`);
    }
  }
  const windowRaw = get('delivery-window');
  let deliveryWindow: number | 'auto' | undefined;
  if (windowRaw === 'auto') deliveryWindow = 'auto';
  else if (windowRaw !== undefined) {
    deliveryWindow = Number(windowRaw);
    if (!Number.isInteger(deliveryWindow) || deliveryWindow < 1 || deliveryWindow > 256) {
      throw new CliError(`--delivery-window must be a whole number from 1 to 256 or auto, got "${windowRaw}"`);
    }
  }
  const allowRaw = get('webhook-allow');
  const webhookAllow =
    allowRaw === undefined
      ? undefined
      : allowRaw
          .split(',')
          .map((h) => h.trim())
          .filter((h) => h.length > 0);
  if (webhookAllow !== undefined && webhookAllow.length === 0) throw new CliError('--webhook-allow needs at least one host');
  return {
    dataDir: dataDir === '' ? undefined : dataDir,
    deliveryTimeout,
    ...(deliveryWindow !== undefined ? { deliveryWindow } : {}),
    webhookAllow,
  };
}

function parseCors(raw: string | undefined): true | string[] | undefined {
  if (raw === undefined || raw.trim() === '' || raw.trim() === 'off') return undefined;
  const list = raw
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  if (list.includes('*')) return true;
  for (const origin of list) {
    if (!/^https?:\/\/[^/?#\s]+$/i.test(origin)) throw new CliError(`--cors takes origins like https://app.example.com, got "${origin}"`);
  }
  return list;
}
