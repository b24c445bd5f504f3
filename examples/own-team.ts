/**
 * Gives a test its own team (so tests can run in parallel against one sandbox): creates a team
 * through the management API and answers its id and sandbox API key. Works with anything that
 * has `credentials()`: the control client of `health-sandbox/testing` (`startSandbox`,
 * `connectSandbox`) or an in-process sandbox (`createSandbox`, with msw answering the management
 * URL). Teams never see each other's users, orders, events or webhooks.
 * In your project: copy it, importing from 'health-sandbox' / 'health-sandbox/testing'.
 */
interface TeamCredentials {
  management_url: string;
  org_id: string;
  management_key: string;
  teams: ReadonlyArray<{ team_id: string; api_keys: { sandbox: string } }>;
}

let counter = 0;

export async function ownTeam(
  sandbox: { credentials(): TeamCredentials | Promise<TeamCredentials> },
  name = `test-team-${process.pid}-${++counter}`,
): Promise<{ teamId: string; apiKey: string }> {
  const creds = await sandbox.credentials();
  const res = await fetch(`${creds.management_url}/v1/org/${creds.org_id}/team`, {
    method: 'POST',
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    body: JSON.stringify({ name, region: 'us' }),
  });
  if (res.status !== 200) throw new Error(`team not created: ${res.status} ${await res.text()}`);
  const team = (await res.json()) as { id: string };
  const keys = (await sandbox.credentials()).teams.find((t) => t.team_id === team.id);
  if (!keys) throw new Error('new team missing from credentials');
  return { teamId: team.id, apiKey: keys.api_keys.sandbox };
}
