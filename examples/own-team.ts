/**
 * Gives a test its own team (so tests can run in parallel against one sandbox server): creates a
 * team through the management API and answers its id and sandbox API key.
 * In your project: `import type { SandboxControl } from 'health-sandbox/testing'`.
 */
import type { SandboxControl } from '../src/testing.js';

let counter = 0;

export async function ownTeam(control: SandboxControl, name = `test-team-${process.pid}-${++counter}`): Promise<{ teamId: string; apiKey: string }> {
  const creds = await control.credentials();
  const res = await fetch(`${creds.management_url}/v1/org/${creds.org_id}/team`, {
    method: 'POST',
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    body: JSON.stringify({ name, region: 'us' }),
  });
  if (res.status !== 200) throw new Error(`team not created: ${res.status} ${await res.text()}`);
  const team = (await res.json()) as { id: string };
  const keys = (await control.credentials()).teams.find((t) => t.team_id === team.id);
  if (!keys) throw new Error('new team missing from credentials');
  return { teamId: team.id, apiKey: keys.api_keys.sandbox };
}
