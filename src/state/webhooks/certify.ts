/**
 * Certifies an integrator's webhook receiver (issue 46): a fixed battery of deliveries to one URL,
 * signed with the existing signer (`signing.ts`) and sent through the injected transport with the
 * real attempt timeout (`transport.ts`), each judged on the answer that came back. Core code: the
 * wall clock (signature timestamps), the timer (answer times) and the transport are given by the
 * edge (the control route, the CLI).
 *
 * The sandbox only sees answers: a receiver that answers 2xx to a redelivery may still process it
 * twice (the report says so).
 */
import { keyedToken } from '../../engine/ids.js';
import { toBase64 } from '../../engine/bytes.js';
import { hostKind } from './destinations.js';
import { signatureHeader } from './signing.js';
import { send, type TransportResponse, type WebhookTransport } from './transport.js';

/** Receivers reject timestamps further than 5 minutes from their clock; the stale check is 10 minutes old. */
const STALE_SECONDS = 600;

export interface CertifyEnv {
  transport: WebhookTransport;
  /** Wall clock, epoch ms: the signature timestamps. */
  wall: () => number;
  /** Monotonic ms: answer times. */
  timer: () => number;
  /** The attempt timeout (ms): 15 s, the real service's. */
  timeoutMs: number;
  /** Why the URL may not receive deliveries (the webhook destination rules), or null. */
  destinationProblem: (url: string) => string | null;
  /** Why the URL may not be reached once its host resolved to `address` (a resolving transport asks), or null. */
  resolvedProblem?: (url: string, address: string) => string | null;
}

/**
 * The destination rules without a sandbox (the CLI's `certify-receiver`): http or https, never a
 * link-local, metadata or unspecified address, named or resolved.
 */
export function standaloneProblem(url: string): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'The URL is not a valid absolute URL';
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return 'The URL must use http or https';
  return addressProblem(target.hostname);
}

/** The rules for one host name or address. */
export function addressProblem(host: string): string | null {
  const kind = hostKind(host);
  if (kind === 'link-local' || kind === 'metadata') return 'Link-local and cloud metadata addresses may not receive deliveries';
  if (kind === 'unspecified') return 'The unspecified address may not receive deliveries';
  return null;
}

export interface CertifySent {
  headers: Record<string, string>;
  body: string;
}

export interface CertifyReceived {
  status: number | null;
  body: string | null;
  error: string | null;
  ms: number;
}

export interface CertifyCheck {
  id: string;
  description: string;
  passed: boolean;
  sent: CertifySent[];
  received: CertifyReceived[];
  detail: string;
}

export interface CertifyResult {
  url: string;
  passed: boolean;
  failed: string[];
  checks: CertifyCheck[];
  timing: { p50_ms: number; max_ms: number; timeout_ms: number };
  note: string;
}

const CERTIFY_NOTE =
  'The sandbox sees only the answers: a receiver that answers 2xx to a redelivery (same svix-id) must still process the message once; that is not observable from here.';

interface Delivery {
  id: string;
  timestamp: number;
  body: string;
  /** The signature header (absent: not sent). */
  signature?: string;
  /** The body sent when it differs from the one signed. */
  sentBody?: string;
}

type Expect = '2xx' | '4xx';

interface CheckSpec {
  id: string;
  description: string;
  expect: Expect;
  deliveries: (ctx: Battery) => Delivery[];
}

/** What a run shares: the secret, the start time, the message ids. */
interface Battery {
  secret: string;
  now: number;
  ids: string[];
  msgId(n: number): string;
}

const envelope = (eventType: string, data: Record<string, unknown>) =>
  JSON.stringify({
    event_type: eventType,
    data,
    user_id: 'a1f0c5d2-0000-4000-8000-00000000ce01',
    client_user_id: 'certify-receiver',
    team_id: 'a1f0c5d2-0000-4000-8000-00000000ce02',
  });

const ORDER_ID = 'a1f0c5d2-0000-4000-8000-00000000ce03';
const orderUpdate = (status: string, lowLevel: string) =>
  envelope('labtest.order.updated', {
    id: ORDER_ID,
    user_id: 'a1f0c5d2-0000-4000-8000-00000000ce01',
    status,
    events: [{ id: 1, created_at: '2026-01-01T00:00:00+00:00', status: `${status}.${lowLevel}` }],
  });

const signed = (b: Battery, id: string, body: string, timestamp = b.now): Delivery => ({
  id,
  timestamp,
  body,
  signature: signatureHeader([b.secret], id, timestamp, body),
});

/** A key the receiver does not know (the rotation's new key; a forged signature's key). */
const OTHER_KEY = `whsec_${toBase64(new Uint8Array(24).map((_, i) => (i * 37 + 11) & 0xff))}`;

const BODY = envelope('labtest.order.created', { id: ORDER_ID, status: 'received' });

const CHECKS: readonly CheckSpec[] = [
  {
    id: 'signed_event_accepted',
    description: 'A correctly signed event is accepted (2xx) within the attempt timeout',
    expect: '2xx',
    deliveries: (b) => [signed(b, b.msgId(0), BODY)],
  },
  {
    id: 'bad_signature_refused',
    description: 'An event signed with another secret is refused (4xx)',
    expect: '4xx',
    deliveries: (b) => [{ ...signed(b, b.msgId(1), BODY), signature: signatureHeader([OTHER_KEY], b.msgId(1), b.now, BODY) }],
  },
  {
    id: 'missing_signature_refused',
    description: 'An event without a svix-signature header is refused (4xx)',
    expect: '4xx',
    deliveries: (b) => [{ id: b.msgId(2), timestamp: b.now, body: BODY }],
  },
  {
    id: 'changed_body_signature_refused',
    description: 'An event whose body changed after signing is refused (4xx)',
    expect: '4xx',
    deliveries: (b) => [{ ...signed(b, b.msgId(3), BODY), sentBody: BODY.replace('"received"', '"completed"') }],
  },
  {
    id: 'stale_timestamp_signature_refused',
    description: `A correctly signed event whose timestamp is ${STALE_SECONDS / 60} minutes old (outside the 5-minute tolerance) is refused (4xx)`,
    expect: '4xx',
    deliveries: (b) => [signed(b, b.msgId(4), BODY, b.now - STALE_SECONDS)],
  },
  {
    id: 'rotation_signature_accepted',
    description: 'During a secret rotation (two signatures: a new key first, then the known secret) the event is accepted (2xx)',
    expect: '2xx',
    deliveries: (b) => [{ ...signed(b, b.msgId(5), BODY), signature: signatureHeader([OTHER_KEY, b.secret], b.msgId(5), b.now, BODY) }],
  },
  {
    id: 'redelivery_accepted',
    description: 'A redelivery of the same message (same svix-id, fresh signature) is accepted (2xx): receivers must be idempotent',
    expect: '2xx',
    deliveries: (b) => [signed(b, b.msgId(6), BODY), signed(b, b.msgId(6), BODY)],
  },
  {
    id: 'unknown_event_type_accepted',
    description: 'An event type the receiver does not know is accepted (2xx): new types appear without notice',
    expect: '2xx',
    deliveries: (b) => [signed(b, b.msgId(7), envelope('daily.data.certification_probe.created', { user_id: 'x', source: {} }))],
  },
  {
    id: 'out_of_order_accepted',
    description: 'Lab order updates out of order (completed before collecting_sample) are each accepted (2xx)',
    expect: '2xx',
    deliveries: (b) => [
      signed(b, b.msgId(8), orderUpdate('completed', 'completed')),
      signed(b, b.msgId(9), orderUpdate('collecting_sample', 'requisition_created')),
    ],
  },
];

function headersOf(d: Delivery): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'health-sandbox-certify',
    'svix-id': d.id,
    'svix-timestamp': String(d.timestamp),
  };
  if (d.signature !== undefined) h['svix-signature'] = d.signature;
  return h;
}

function fits(expect: Expect, status: number): boolean {
  return expect === '2xx' ? status >= 200 && status < 300 : status >= 400 && status < 500;
}

async function deliver(env: CertifyEnv, url: string, d: Delivery): Promise<{ sent: CertifySent; received: CertifyReceived }> {
  const sent = { headers: headersOf(d), body: d.sentBody ?? d.body };
  const started = env.timer();
  const resolved = env.resolvedProblem;
  const request = { url, method: 'POST' as const, headers: sent.headers, body: sent.body };
  const outcome = await send(
    env.transport,
    resolved === undefined ? request : { ...request, checkAddress: (address: string) => resolved(url, address) },
    env.timeoutMs,
    env.wall,
  );
  const ms = Math.max(0, Math.round(env.timer() - started));
  const res: TransportResponse | null = outcome.response;
  return { sent, received: { status: res?.status ?? null, body: res?.body ?? null, error: outcome.error, ms } };
}

function verdict(spec: CheckSpec, received: CertifyReceived[], timeoutMs: number): { passed: boolean; detail: string } {
  for (const [i, r] of received.entries()) {
    const which = received.length > 1 ? `delivery ${i + 1}: ` : '';
    if (r.status === null) return { passed: false, detail: `${which}no answer (${r.error ?? 'unknown error'}); expected ${spec.expect}` };
    if (!fits(spec.expect, r.status)) return { passed: false, detail: `${which}answered ${r.status}; expected ${spec.expect}` };
    if (r.ms > timeoutMs) return { passed: false, detail: `${which}answered after ${r.ms} ms; the timeout is ${timeoutMs} ms` };
  }
  return { passed: true, detail: `answered ${received.map((r) => r.status).join(', ')} as expected (${spec.expect})` };
}

function percentile50(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Runs the battery against `url`, one delivery at a time, in the order of CHECKS. */
export async function certifyReceiver(env: CertifyEnv, url: string, secret: string): Promise<CertifyResult> {
  const problem = env.destinationProblem(url);
  if (problem !== null) throw new CertifyRefused(problem);
  const now = Math.floor(env.wall() / 1000);
  const battery: Battery = {
    secret,
    now,
    ids: [],
    msgId: (n) => keyedToken(27, 'msg_', 0, `certify\u241f${url}\u241f${now}\u241f${n}`),
  };
  const checks: CertifyCheck[] = [];
  const times: number[] = [];
  for (const spec of CHECKS) {
    const sent: CertifySent[] = [];
    const received: CertifyReceived[] = [];
    for (const d of spec.deliveries(battery)) {
      const one = await deliver(env, url, d);
      sent.push(one.sent);
      received.push(one.received);
      if (one.received.status !== null) times.push(one.received.ms);
    }
    const { passed, detail } = verdict(spec, received, env.timeoutMs);
    checks.push({ id: spec.id, description: spec.description, passed, sent, received, detail });
  }
  const failed = checks.filter((c) => !c.passed).map((c) => c.id);
  return {
    url,
    passed: failed.length === 0,
    failed,
    checks,
    timing: { p50_ms: percentile50(times), max_ms: times.length === 0 ? 0 : Math.max(...times), timeout_ms: env.timeoutMs },
    note: CERTIFY_NOTE,
  };
}

/** The URL may not receive deliveries (the webhook destination rules). */
export class CertifyRefused extends Error {
  override name = 'CertifyRefused';
}

/** The certification as text lines (the CLI without --json). */
export function certifyText(result: CertifyResult): string {
  const lines = [`Certifying the webhook receiver ${result.url}`, ''];
  for (const c of result.checks) lines.push(`  ${c.passed ? 'PASS' : 'FAIL'}  ${c.id}: ${c.detail}`);
  lines.push('', `Answer time: p50 ${result.timing.p50_ms} ms, max ${result.timing.max_ms} ms (timeout ${result.timing.timeout_ms} ms)`);
  lines.push(result.passed ? 'Every check passed.' : `Failed: ${result.failed.join(', ')}`);
  lines.push(`Note: ${result.note}`);
  return lines.join('\n');
}
