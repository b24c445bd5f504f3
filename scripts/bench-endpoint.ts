/** Creates a webhook endpoint (no filter: every event) on the first team's sandbox environment, through the management API. */
import type { Sandbox } from '../src/index.js';

const encoder = new TextEncoder();

export async function createEndpoint(sandbox: Sandbox, url: string): Promise<void> {
  const creds = sandbox.credentials();
  const team = creds.teams[0];
  if (!team) throw new Error('no team');
  const res = await sandbox.dispatch({
    method: 'POST',
    surface: 'management',
    path: `/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`,
    query: {},
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    rawBody: encoder.encode(JSON.stringify({ url })),
  });
  if (res.status !== 200) throw new Error(`webhook endpoint not created: ${res.status}`);
}
