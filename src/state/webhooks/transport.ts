/**
 * How an attempt reaches a receiver: an injected transport `(request) => Promise<response>`. The
 * default is the global `fetch`, looked up at call time (so msw intercepts it); `createSandbox({
 * webhookTransport })` lets a test, a worker or a browser inject another. Every attempt is bounded
 * by its timeout even when a transport ignores the abort signal.
 */

/** How much of a response body is kept. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface TransportRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  /** Aborted when the attempt times out. */
  signal: AbortSignal;
  /**
   * The endpoint the attempt is for: a transport that keeps connections (the CLI's) keeps them
   * per endpoint, so one endpoint's hanging answers never hold another's attempts.
   */
  endpoint?: string;
  /**
   * Why the destination is refused once its host resolved to `address` (null: allowed). A
   * transport that resolves names (the CLI's) calls it for every address before connecting and
   * refuses the attempt with a `DestinationRefused` error; in-process transports ignore it.
   */
  checkAddress?: (address: string) => string | null;
}

/** The error name a transport rejects with when `checkAddress` refused the destination. */
export const DESTINATION_REFUSED = 'DestinationRefused';

export interface TransportResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** At least the first RESPONSE_EXCERPT_BYTES of the body (more is cut). */
  body: string;
}

export type WebhookTransport = ((request: TransportRequest) => Promise<TransportResponse>) & {
  /**
   * Set by a transport that watches each signal once, whatever number of requests share it (the
   * CLI's node transport): attempts started together then get one shared signal. Any other
   * transport (fetch adds a listener per request) gets a signal of its own per request.
   */
  sharesSignals?: boolean;
  /**
   * Set by a transport that sends one endpoint's requests over one connection, in the order they
   * start (HTTP/1.1 pipelining: the CLI's node transport), so they also arrive in that order. The
   * default delivery window then adapts to the receiver (`delivery-window.ts`); otherwise it is 1.
   */
  pipelines?: boolean;
};

const noop = (): void => undefined;

async function readExcerpt(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let have = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      have += value.byteLength;
      if (have >= RESPONSE_EXCERPT_BYTES) {
        await reader.cancel().catch(noop);
        break;
      }
    }
  } catch {
    // A body cut short still leaves what arrived.
  }
  const all = new Uint8Array(Math.min(have, RESPONSE_EXCERPT_BYTES));
  let at = 0;
  for (const c of chunks) {
    if (at >= all.length) break;
    const part = c.subarray(0, all.length - at);
    all.set(part, at);
    at += part.length;
  }
  return new TextDecoder().decode(all);
}

/** The default transport: the global `fetch` at call time, redirects not followed. */
export const fetchTransport: WebhookTransport = async (request) => {
  const res = await globalThis.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
    signal: request.signal,
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  return { status: res.status, headers, body: await readExcerpt(res) };
};

/** The first RESPONSE_EXCERPT_BYTES of a string, in UTF-8 bytes. */
function excerpt(body: string): string {
  if (body.length <= RESPONSE_EXCERPT_BYTES / 4) return body;
  const bytes = new TextEncoder().encode(body);
  return bytes.length <= RESPONSE_EXCERPT_BYTES ? body : new TextDecoder().decode(bytes.subarray(0, RESPONSE_EXCERPT_BYTES));
}

export interface SendOutcome {
  response: TransportResponse | null;
  /** Transport failure (timeout, refused connection, ...), null when an HTTP answer came back. */
  error: string | null;
  timedOut: boolean;
}

function describeError(error: unknown): string {
  if (error instanceof Error && error.name === DESTINATION_REFUSED) return `refused: ${error.message}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String((cause as { code: unknown }).code) : undefined;
    const detail = cause instanceof Error ? cause.message : error.message;
    return `connection error${code ? ` (${code})` : ''}: ${detail}`;
  }
  return `connection error: ${String(error)}`;
}

/**
 * Attempts started close together with the same timeout share one deadline: one timer for the
 * group instead of one per attempt (and one abort signal, for a transport that `sharesSignals`).
 * A group takes members for GROUP_MS of wall time (at most a tenth of the timeout) after it
 * opened, and its time is up GROUP_MS after a full timeout: every member gets at least its whole
 * timeout and at most GROUP_MS more. One attempt at a time to a receiver that answers at once
 * then costs one timer per group, not one per attempt (issue 33). Without a wall clock (a caller
 * that gives none) a group takes members until the end of the turn that opened it, and its time
 * is up one timeout after it opened. The signal aborts when the group's time is up; by then every
 * member still waiting has timed out (a member that finished earlier has left and is not
 * affected).
 */
interface Deadline {
  readonly timeoutMs: number;
  readonly controller: AbortController;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Members still waiting: each is told when the time is up. */
  readonly waiting: Set<() => void>;
  /** Still taking members. */
  open: boolean;
  /** Wall time (ms) until which it takes members (NaN: until the end of the turn). */
  readonly joinUntil: number;
  /** Given its time again once already, after a stall of the process (see `joinDeadline`). */
  extended: boolean;
}

/** A deadline timer firing this late (ms, or half the timeout if more) means the process stalled. */
const STALL_MS = 250;
/** How long (wall ms) a deadline group takes members. */
const GROUP_MS = 50;

let openDeadline: Deadline | null = null;

function closeDeadline(d: Deadline): void {
  d.open = false;
  if (openDeadline === d) openDeadline = null;
  if (d.waiting.size === 0) clearTimeout(d.timer);
}

/**
 * `wall`: the sandbox's wall clock. When the deadline's timer fires much later than it was due,
 * the process itself stalled (a loaded machine, a long synchronous task): timers run before the
 * I/O that queued up meanwhile, so an answer already in the socket would be read after the
 * attempt was declared timed out (and the abort would cut a request the receiver had not read
 * yet). Such a deadline gets its time once more, from when the process runs again: a timeout
 * means the receiver had the whole timeout to answer while the sandbox could listen.
 */
function joinDeadline(timeoutMs: number, wall: (() => number) | undefined): Deadline {
  const current = openDeadline;
  const now = wall === undefined ? 0 : wall();
  if (current?.open && current.timeoutMs === timeoutMs && !(now > current.joinUntil)) return current;
  if (current !== null) closeDeadline(current);
  const span = wall === undefined ? 0 : Math.min(GROUP_MS, timeoutMs / 10);
  const d: Deadline = {
    timeoutMs,
    controller: new AbortController(),
    timer: undefined,
    waiting: new Set(),
    open: true,
    joinUntil: wall === undefined ? Number.NaN : now + span,
    extended: false,
  };
  const due = now + span + timeoutMs;
  const expire = (): void => {
    closeDeadline(d);
    d.controller.abort();
    const expired = [...d.waiting];
    d.waiting.clear();
    for (const fn of expired) fn();
  };
  d.timer = setTimeout(() => {
    if (wall !== undefined && !d.extended && d.waiting.size > 0 && wall() - due > Math.max(STALL_MS, timeoutMs / 2)) {
      d.extended = true;
      d.timer = setTimeout(expire, timeoutMs);
      return;
    }
    expire();
  }, span + timeoutMs);
  // Without a wall clock: closed at the end of this turn.
  if (wall === undefined) setTimeout(() => closeDeadline(d), 0);
  openDeadline = d;
  return d;
}

/** Node's timers can stop holding the process open (a browser's are numbers: nothing to do). */
function holdOpen(d: Deadline, hold: boolean): void {
  const timer = d.timer as { ref?: () => unknown; unref?: () => unknown } | number | undefined;
  if (typeof timer === 'object') hold ? timer.ref?.() : timer.unref?.();
}

function enterDeadline(d: Deadline, member: () => void): void {
  if (d.waiting.size === 0) holdOpen(d, true);
  d.waiting.add(member);
}

/** An open group left empty keeps its timer (the next attempt may join) without holding the process open. */
function leaveDeadline(d: Deadline, member: () => void): void {
  d.waiting.delete(member);
  if (d.waiting.size > 0) return;
  if (d.open) holdOpen(d, false);
  else clearTimeout(d.timer);
}

/**
 * Sends one request through a transport, bounded by `timeoutMs` (wall time, read from `wall`): on
 * timeout the signal aborts and the attempt ends at once, whatever the transport does.
 */
export function send(
  transport: WebhookTransport,
  request: Omit<TransportRequest, 'signal'>,
  timeoutMs: number,
  wall?: () => number,
): Promise<SendOutcome> {
  const deadline = joinDeadline(timeoutMs, wall);
  const own = transport.sharesSignals === true ? null : new AbortController();
  const signal = own === null ? deadline.controller.signal : own.signal;
  return new Promise<SendOutcome>((resolve) => {
    let done = false;
    const timedOut = (): void => {
      if (done) return;
      done = true;
      own?.abort();
      resolve({ response: null, error: `timeout: no answer within ${timeoutMs / 1000} s`, timedOut: true });
    };
    const settle = (outcome: SendOutcome): void => {
      if (done) return;
      done = true;
      leaveDeadline(deadline, timedOut);
      resolve(outcome);
    };
    enterDeadline(deadline, timedOut);
    let sent: Promise<TransportResponse>;
    // Built field by field (no spread of optional fields: one object of one shape per attempt).
    const req: TransportRequest = { url: request.url, method: request.method, headers: request.headers, body: request.body, signal };
    if (request.endpoint !== undefined) req.endpoint = request.endpoint;
    if (request.checkAddress !== undefined) req.checkAddress = request.checkAddress;
    try {
      sent = transport(req);
    } catch (error) {
      settle({ response: null, error: describeError(error), timedOut: false });
      return;
    }
    sent.then(
      (result) =>
        settle({
          response: { status: result.status, headers: lowerCase(result.headers), body: excerpt(result.body) },
          error: null,
          timedOut: false,
        }),
      (error: unknown) => (signal.aborted ? timedOut() : settle({ response: null, error: describeError(error), timedOut: false })),
    );
  });
}

function lowerCase(headers: Record<string, string>): Record<string, string> {
  let lower = true;
  for (const k in headers) {
    if (k !== k.toLowerCase()) {
      lower = false;
      break;
    }
  }
  if (lower) return headers;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}
