/**
 * The pure parts of webhook delivery: the retry policy (attempt number, status, Retry-After,
 * receiver directives), address classification for destinations, and the bounded transport call.
 */
import { describe, expect, it } from 'vitest';
import { hostKind } from '../../src/state/webhooks/destinations.js';
import { afterFailure, MAX_ATTEMPTS, parseRetryAfter, retryDelayMs, THROTTLE_MIN_MS } from '../../src/state/webhooks/retry-policy.js';
import { RESPONSE_EXCERPT_BYTES, send } from '../../src/state/webhooks/transport.js';

const base = { status: 500, timedOut: false, retryAfter: undefined, directive: undefined, wallNow: 0 };

describe('retry policy', () => {
  it('walks 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then stops', () => {
    const delays = [];
    for (let failures = 1; failures < MAX_ATTEMPTS; failures++) {
      const next = afterFailure({ ...base, failures });
      expect(next.kind).toBe('retry');
      if (next.kind === 'retry') delays.push(next.delayMs / 1000);
    }
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(afterFailure({ ...base, failures: MAX_ATTEMPTS })).toEqual({ kind: 'done', reason: 'exhausted' });
  });

  it('throttles after a 429 or a timeout, clamps Retry-After to [delay, 2 x delay], obeys abort-message', () => {
    expect(retryDelayMs(1, 429, false, null)).toBe(THROTTLE_MIN_MS);
    expect(retryDelayMs(1, null, true, null)).toBe(THROTTLE_MIN_MS);
    expect(retryDelayMs(1, 503, false, 30_000)).toBe(10_000);
    expect(retryDelayMs(2, 503, false, 1_000)).toBe(300_000);
    expect(parseRetryAfter('12', 0)).toBe(12_000);
    expect(parseRetryAfter(new Date(90_500).toUTCString(), 0)).toBe(90_000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(afterFailure({ ...base, failures: 1, directive: 'abort-message' })).toEqual({ kind: 'done', reason: 'aborted_by_receiver' });
  });
});

describe('destination addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['localhost', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['169.254.169.254', 'link-local'],
    ['169.254.10.1', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['[febf::1]', 'link-local'],
    ['[::ffff:a9fe:a9fe]', 'link-local'],
    ['[fd00:ec2::254]', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['[fc00::1]', 'private'],
    ['172.32.0.1', 'public'],
    ['[2001:db8::1]', 'public'],
    ['hooks.example.com', 'public'],
  ])('%s is %s', (host, kind) => {
    expect(hostKind(host)).toBe(kind);
  });

  it('classifies what the URL parser normalises (decimal and hex IPv4, mapped IPv6)', () => {
    expect(hostKind(new URL('http://2852039166/').hostname)).toBe('link-local');
    expect(hostKind(new URL('http://0x7f000001/').hostname)).toBe('loopback');
    expect(hostKind(new URL('http://[::ffff:10.0.0.1]/').hostname)).toBe('private');
  });
});

describe('bounded transport call', () => {
  it('ends an attempt at its timeout even when the transport ignores the abort signal', async () => {
    const outcome = await send(
      () => new Promise(() => undefined),
      { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, body: '{}' },
      5,
    );
    expect(outcome).toEqual({ response: null, error: 'timeout: no answer within 0.005 s', timedOut: true });
  });

  it('keeps the first 1 KiB of a body, lower-cases header names, and describes transport errors', async () => {
    const long = await send(
      async () => ({ status: 200, headers: { 'Retry-After': '3' }, body: 'x'.repeat(5000) }),
      { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, body: '' },
      1000,
    );
    expect(long.response?.body).toHaveLength(RESPONSE_EXCERPT_BYTES);
    expect(long.response?.headers).toEqual({ 'retry-after': '3' });
    const refused = await send(
      () =>
        Promise.reject(
          Object.assign(new Error('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }),
        ),
      { url: 'http://127.0.0.1:9/', method: 'POST', headers: {}, body: '' },
      1000,
    );
    expect(refused).toEqual({ response: null, error: 'connection error (ECONNREFUSED): connect ECONNREFUSED', timedOut: false });
  });
});
