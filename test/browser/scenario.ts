/**
 * The calls the browser test makes, written once and run both in the page (msw setupWorker) and
 * in Node (msw setupServer): create a user, the duplicate 400, a demo connection, a clock
 * advance, ECG summaries, and a 401 without a key. Plain fetch, so it runs anywhere.
 */
export interface Step {
  step: string;
  status: number;
  body: unknown;
}

export async function runScenario(baseUrl: string, apiKey: string): Promise<Step[]> {
  const steps: Step[] = [];
  const call = async (step: string, path: string, init: { method?: string; body?: unknown; key?: string | null } = {}): Promise<any> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = init.key === undefined ? apiKey : init.key;
    if (key !== null) headers['x-vital-api-key'] = key;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const body: unknown = await res.json();
    steps.push({ step, status: res.status, body });
    return body;
  };
  const created = await call('create user', '/v2/user', { method: 'POST', body: { client_user_id: 'browser-1' } });
  await call('duplicate user', '/v2/user', { method: 'POST', body: { client_user_id: 'browser-1' } });
  const userId = String(created?.user_id);
  await call('connect demo', '/v2/link/connect/demo', { method: 'POST', body: { user_id: userId, provider: 'apple_health_kit' } });
  await call('advance clock', '/_sandbox/clock/advance', { method: 'POST', body: { seconds: 2 * 86_400 } });
  await call('ecg summaries', `/v2/summary/electrocardiogram/${userId}?start_date=2025-12-01&end_date=2026-01-07`);
  await call('no api key', '/v2/user', { key: null });
  return steps;
}
