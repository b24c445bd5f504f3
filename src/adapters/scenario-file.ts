/** Reads a scenario file (JSON or YAML) for the CLI and `health-sandbox/testing`. */
import { readFileSync } from 'node:fs';
import { parseScenario, parseScenarioText, ScenarioError } from '../scenario/parse.js';
import type { Scenario } from '../scenario/schema.js';

export function readScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ScenarioError([`(file): cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  try {
    return parseScenario(parseScenarioText(text, path));
  } catch (error) {
    if (error instanceof ScenarioError) throw new ScenarioError(error.problems.map((p) => `${path}: ${p}`));
    throw error;
  }
}

/** A scenario given as a file path (ends in .json, .yaml or .yml) or as an object or text. */
export function isScenarioPath(value: unknown): value is string {
  return typeof value === 'string' && /\.(json|ya?ml)$/i.test(value.trim()) && !value.includes('\n');
}
