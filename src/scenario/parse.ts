/**
 * Reads a scenario (an object, JSON text or YAML text) and checks it whole before anything is
 * applied: every problem names its path inside the file, e.g.
 * `users[2].connections[0].provider: unknown provider "fitbitt"`.
 */
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { DEFAULT_TEAMS } from '../fixtures/management/tenancy.js';
import { ZIP_HINTS, buildPath, parseFullStatus, type Fate, type LowStatus } from '../state/labs/order-lifecycle.js';
import { scenarioSchema, type Scenario } from './schema.js';

/** Demo providers that record ECGs. */
const ECG_PROVIDERS = ['apple_health_kit', 'fitbit'];

export class ScenarioError extends Error {
  constructor(
    /** Every problem, each `path: message`. */
    readonly problems: string[],
  ) {
    super(
      problems.length === 1
        ? (problems[0] as string)
        : `${problems.length} problems in the scenario:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    this.name = 'ScenarioError';
  }
}

/** `users[2].connections[0].provider` from a zod path. */
function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(file)' : out;
}

function issueText(issue: z.core.$ZodIssue): string {
  return `${formatPath(issue.path)}: ${issue.message}`;
}

type LabOrder = Scenario['users'][number]['lab_orders'][number];

const fateOf = (path: LabOrder['path']): Fate => (path === 'lost_in_transit' ? 'lost' : path);

/** The zip code choosing a scripted path, or an error text when the method cannot follow it. */
export function pathZip(path: LabOrder['path'], method: string): { zip: string | null; problem: string | null } {
  if (path === 'happy') return { zip: null, problem: null };
  const fate = fateOf(path);
  const hint = ZIP_HINTS.find((h) => h.fate === fate);
  if (!hint) return { zip: null, problem: `unknown path "${path}"` };
  if (!(hint.methods as readonly string[]).includes(method))
    return { zip: null, problem: `path "${path}" applies to ${hint.methods.join(', ')} orders, not ${method}` };
  return { zip: hint.zip, problem: null };
}

/** The low-level status an order's `status` names, or an error text when its method and path never reach it. */
export function startStatus(o: LabOrder): { low: LowStatus | null; problem: string | null } {
  if (o.status === undefined) return { low: null, problem: null };
  let low = o.status as LowStatus;
  if (o.status.includes('.')) {
    const parsed = parseFullStatus(o.status);
    if (!parsed || parsed.method !== o.method)
      return { low: null, problem: `"${o.status}" is a ${parsed?.method ?? 'other'} status, not ${o.method}` };
    low = parsed.low;
  }
  const steps = buildPath(o.method, fateOf(o.path), false).map((step) => step.status);
  if (low === 'cancelled' || steps.includes(low)) return { low, problem: null };
  return {
    low: null,
    problem: `a ${o.method} order on the ${o.path} path never reaches "${low}" (it goes through ${[...new Set(steps)].join(', ')}, or is cancelled)`,
  };
}

/** Team names a scenario may refer to: the seeded teams and those it declares. */
function knownTeams(s: Scenario): string[] {
  return [...new Set([...DEFAULT_TEAMS.map((t) => t.name), ...s.teams.map((t) => t.name)])];
}

/** The problem with a reference to a team by name, if any. */
function teamProblem(at: string, name: string | undefined, known: string[]): string | null {
  if (name === undefined || known.includes(name)) return null;
  return `${at}.team: unknown team "${name}" (declare it under teams, or use ${known.map((n) => `"${n}"`).join(', ')})`;
}

function semanticProblems(s: Scenario): string[] {
  const problems: string[] = [];
  const teamNames = new Set<string>();
  s.teams.forEach((t, i) => {
    if (teamNames.has(t.name)) problems.push(`teams[${i}].name: team "${t.name}" is declared twice`);
    teamNames.add(t.name);
    const seeded = DEFAULT_TEAMS.find((x) => x.name === t.name);
    if (seeded && t.region !== undefined && t.region !== seeded.region) {
      problems.push(`teams[${i}].region: the seeded team "${t.name}" is in region ${seeded.region}; a team's region cannot change`);
    }
  });
  const known = knownTeams(s);
  const firstTeam = (DEFAULT_TEAMS[0] as { name: string }).name;
  const clientIds = new Set<string>();
  s.users.forEach((u, i) => {
    const teamRef = teamProblem(`users[${i}]`, u.team, known);
    if (teamRef) problems.push(teamRef);
    const key = `${u.team ?? firstTeam}\u0000${u.client_user_id}`;
    if (clientIds.has(key)) problems.push(`users[${i}].client_user_id: "${u.client_user_id}" is declared twice in the same team`);
    clientIds.add(key);
    if (u.time_zone !== undefined) {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: u.time_zone });
      } catch {
        problems.push(`users[${i}].time_zone: unknown time zone "${u.time_zone}"`);
      }
    }
    const providers = new Set<string>();
    u.connections.forEach((c, j) => {
      const at = `users[${i}].connections[${j}]`;
      if (providers.has(c.provider)) problems.push(`${at}.provider: "${c.provider}" is connected twice`);
      providers.add(c.provider);
      if (c.error && c.state !== 'error') problems.push(`${at}.error: only with state "error"`);
      const pull = c.historical_pull;
      if (pull?.error_details) {
        const retry = pull.outcome.startsWith('retry');
        const failing = pull.outcome === 'failure' || pull.outcome === 'retry_then_failure';
        const retriable = ['provider_rate_limit_exceeded', 'provider_unavailable', 'transport_failure', 'resource_contention'].includes(
          pull.error_details,
        );
        if (retriable && !retry)
          problems.push(`${at}.historical_pull.error_details: ${pull.error_details} is retriable: use a retry_then_* outcome`);
        if (!retriable && !failing)
          problems.push(`${at}.historical_pull.error_details: ${pull.error_details} is not retriable: use a failure outcome`);
      }
    });
    if (u.ecg && u.ecg.length > 0 && !u.connections.some((c) => ECG_PROVIDERS.includes(c.provider))) {
      problems.push(`users[${i}].ecg: needs a connection that records ECGs (${ECG_PROVIDERS.join(', ')})`);
    }
    u.lab_orders.forEach((o, j) => {
      const { problem } = pathZip(o.path, o.method);
      if (problem) problems.push(`users[${i}].lab_orders[${j}].path: ${problem}`);
      else {
        const start = startStatus(o);
        if (start.problem) problems.push(`users[${i}].lab_orders[${j}].status: ${start.problem}`);
      }
    });
  });
  s.webhooks.forEach((w, i) => {
    const teamRef = teamProblem(`webhooks[${i}]`, w.team, known);
    if (teamRef) problems.push(teamRef);
    if ((w.receiver === undefined) === (w.url === undefined)) problems.push(`webhooks[${i}]: give exactly one of receiver or url`);
    if (w.answers && w.receiver === undefined) problems.push(`webhooks[${i}].answers: only for a built-in receiver`);
  });
  s.faults.forEach((f, i) => {
    const teamRef = teamProblem(`faults[${i}]`, f.team, known);
    if (teamRef) problems.push(teamRef);
    if (f.team !== undefined && f.match.team_id !== undefined) problems.push(`faults[${i}].team: give team or match.team_id, not both`);
  });
  return problems;
}

/** Parses JSON or YAML text (YAML is a superset of JSON) into a plain value. */
export function parseScenarioText(text: string, source = 'scenario'): unknown {
  try {
    return parseYaml(text, { prettyErrors: true });
  } catch (error) {
    throw new ScenarioError([
      `(file): ${source} is neither JSON nor YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    ]);
  }
}

/** Checks a scenario (object, or JSON/YAML text) whole; throws a ScenarioError listing every problem. */
export function parseScenario(input: unknown): Scenario {
  const value = typeof input === 'string' ? parseScenarioText(input) : input;
  if (typeof value === 'string' && typeof input === 'string' && !input.includes('\n')) {
    throw new ScenarioError([
      `(file): a scenario is an object, not the string "${input.length > 80 ? `${input.slice(0, 80)}…` : input}": pass the file's text or an object (to load a file by its path, use startSandbox({ scenario: path }) or readScenarioFile(path) from health-sandbox/testing, or --scenario)`,
    ]);
  }
  const parsed = scenarioSchema.safeParse(value ?? {});
  if (!parsed.success) throw new ScenarioError(parsed.error.issues.map(issueText));
  const problems = semanticProblems(parsed.data);
  if (problems.length > 0) throw new ScenarioError(problems);
  return parsed.data;
}
