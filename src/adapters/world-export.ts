/**
 * `health-sandbox export`: prints a world document on stdout, from a running sandbox (`GET
 * /_sandbox/world` at `--url`, default http://127.0.0.1:4250) or from a state file
 * (`--state-file`), so a team can check a world into git and start CI from it (`--world-file`).
 */
import { readStateFile } from './state-file.js';

export async function exportWorld(options: {
  url: string | undefined;
  stateFile: string | undefined;
  adminToken: string | undefined;
}): Promise<string> {
  if (options.stateFile !== undefined && options.url === undefined) {
    const doc = readStateFile(options.stateFile);
    if (!doc) throw new Error(`state file ${options.stateFile}: no such file`);
    return JSON.stringify(doc);
  }
  const base = (options.url ?? 'http://127.0.0.1:4250').replace(/\/+$/, '');
  const headers: Record<string, string> = options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {};
  let res: Response;
  try {
    res = await fetch(`${base}/_sandbox/world`, { headers });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    throw new Error(`cannot reach ${base} (${cause?.code ?? String(error)})`);
  }
  if (res.status !== 200) throw new Error(`${base}/_sandbox/world answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  return await res.text();
}
