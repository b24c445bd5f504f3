/** Transport-free request and response of the engine (design.md section 2). */

export type Surface = 'data' | 'management';

export interface SimRequest {
  method: string;
  /** `data` for the base URL, `management` for the management URL. */
  surface: Surface;
  /** Path without the surface prefix and without query, e.g. `/v2/user/abc`. */
  path: string;
  /** Multi-valued query. */
  query: Record<string, string[]>;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** Raw body bytes (empty when none). */
  rawBody: Uint8Array;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialised body; empty for 204. May be a view of a larger (pooled) buffer: read its own offset and length. */
  body: Uint8Array;
  /**
   * Transport-level behaviour the adapter carries out (faults): `drop` closes the connection with
   * no answer (`HttpResponse.error()` in msw); `delayMs` waits that long (wall time) before
   * answering.
   */
  drop?: true;
  delayMs?: number;
  /** Called by the adapter that carried out `delayMs`, with the wall ms the client waited (the request journal's record of it). */
  waited?: (waitedMs: number) => void;
}

/** What a handler returns; dispatch serialises it. */
export interface Reply {
  status: number;
  /** JSON value, or raw bytes when `raw` is set, or undefined for no body. */
  body?: unknown;
  raw?: Uint8Array;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const noContent = (): Reply => ({ status: 204 });
export const binary = (raw: Uint8Array, contentType: string, headers: Record<string, string> = {}): Reply => ({
  status: 200,
  raw,
  headers: { 'content-type': contentType, ...headers },
});
