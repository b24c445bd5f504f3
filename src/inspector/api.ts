/**
 * Requests from the page: the control plane, and the team API with the selected team
 * environment's key. Each carries `x-sandbox-inspector`, so the journal and the fault rules leave
 * the inspector's own reads alone; with an admin token the sign-in cookie goes along (same origin).
 */
import type { Credentials, Team } from './types.js';

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export const session: { creds: Credentials | null; team: number; env: 'sandbox' | 'production' } = { creds: null, team: 0, env: 'sandbox' };

export function teamOf(): Team | undefined {
  return session.creds?.teams[session.team];
}

async function send(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<unknown> {
  const all: Record<string, string> = { 'x-sandbox-inspector': '1', ...headers };
  if (body !== undefined) all['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers: all,
    credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = res.headers.get('content-type') ?? '';
  const data: unknown = type.includes('json') ? await res.json() : await res.blob();
  if (!res.ok) throw new ApiFailure(`${method} ${path} answered ${res.status}`, res.status, data);
  return data;
}

/** The control plane. */
export function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  return send(method, path, body, {}) as Promise<T>;
}

/** The team API with the selected team environment's key. */
export function teamApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const key = teamOf()?.api_keys[session.env] ?? '';
  return send(method, path, body, { 'x-vital-api-key': key }) as Promise<T>;
}

/**
 * Whether a failure is the team API's 401 to a key that is no longer the team's: a reset, a
 * scenario or a restore changed the keys between the drawing's read of the credentials and its
 * team request. Then the page draws again with the new keys instead of showing the 401; a 401 to
 * keys that are still current is a real one and is shown.
 */
export async function keysMovedUnder(e: unknown, read: () => Promise<Credentials>): Promise<boolean> {
  if (!(e instanceof ApiFailure) || e.status !== 401) return false;
  const used = session.creds;
  try {
    const now = await read();
    return JSON.stringify(now.teams) !== JSON.stringify(used?.teams ?? []);
  } catch {
    return false;
  }
}

/** The message of an error for the page's alert, with a 4xx's `detail`. */
export function errorText(e: unknown): string {
  if (e instanceof ApiFailure) {
    const detail = e.body && typeof e.body === 'object' && 'detail' in e.body ? (e.body as { detail: unknown }).detail : undefined;
    return detail === undefined ? e.message : `${e.message}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
  }
  return e instanceof Error ? e.message : String(e);
}
