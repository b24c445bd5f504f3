/**
 * Where webhooks may go. Never the sandbox itself (its API, management API or control plane: a
 * delivery to `/_sandbox/reset` would wipe the world), except its test receivers under
 * `/_sandbox/receiver/*`; never link-local or cloud-metadata addresses; private networks unless
 * `createSandbox({ webhookPrivateNetworks: false })` (the CLI sets it when it binds off
 * loopback); and, when `--webhook-allow` is given, only the hosts it names. Loopback receivers stay
 * allowed: that is how integrators test locally.
 *
 * Host names are judged as written here (the core does no DNS). A transport that resolves names
 * (the CLI's, `src/adapters/node-transport.ts`) also judges every address a name resolves to with
 * `resolvedProblem`, exactly as the literal address would be judged, and connects to the address
 * it checked. The in-process transports (the global `fetch`, msw, a fetch handler) do not.
 */
import { type World, worldSlot } from '../../engine/world.js';
import { WEBHOOKS_ERRORS } from './errors.js';
import { webhookOptionsOf } from './options.js';

const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);
const METADATA_IPS = new Set(['100.100.100.200', '168.63.129.16', '192.0.0.192']);

type Kind = 'loopback' | 'unspecified' | 'link-local' | 'metadata' | 'private' | 'public';

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : null;
}

function kindOfV4(p: number[]): Kind {
  const [a = 0, b = 0] = p;
  if (METADATA_IPS.has(p.join('.'))) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (URL form, brackets removed), or null. */
function ipv6(host: string): number[] | null {
  if (!host.includes(':')) return null;
  let text = host;
  const tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4?.[1] !== undefined) {
    const p = ipv4(v4[1]);
    if (!p) return null;
    tail.push(((p[0] ?? 0) << 8) | (p[1] ?? 0), ((p[2] ?? 0) << 8) | (p[3] ?? 0));
    // What precedes the dotted part ends in `::` (kept) or in a single `:` (dropped).
    text = text.slice(0, -v4[1].length);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head = '', rest] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = rest === undefined || rest === '' ? [] : rest.split(':');
  const fill = 8 - tail.length - left.length - right.length;
  if (fill < 0 || (rest === undefined && fill !== 0)) return null;
  const groups = [...left, ...Array.from({ length: fill }, () => '0'), ...right].map((g) => parseInt(g, 16));
  const all = [...groups, ...tail];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

/** The IPv4 address carried in two 16-bit groups. */
function v4Of(hi: number, lo: number): number[] {
  return [hi >> 8, hi & 255, lo >> 8, lo & 255];
}

/**
 * An IPv6 address that carries an IPv4 one is judged as that IPv4 address: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated but still routed to the IPv4
 * address by some stacks), SIIT (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`, RFC 6052) and
 * 6to4 (`2002:aabb:ccdd::`). The local-use NAT64 prefix `64:ff9b:1::/48` embeds it at a
 * site-chosen place, so the whole prefix counts as private.
 */
function embeddedV4(g: number[]): number[] | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zero4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (zero4 && g4 === 0 && (g5 === 0xffff || (g5 === 0 && g6 !== 0))) return v4Of(g6, g7);
  if (zero4 && g4 === 0xffff && g5 === 0) return v4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4Of(g6, g7);
  if (g0 === 0x2002) return v4Of(g1, g2);
  return null;
}

function kindOfV6(g: number[]): Kind {
  const [g0 = 0] = g;
  const v4 = embeddedV4(g);
  if (v4) return kindOfV4(v4);
  if (g0 === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private';
  if (g.slice(0, 7).every((x) => x === 0)) return g[7] === 1 ? 'loopback' : g[7] === 0 ? 'unspecified' : 'public';
  if (g0 === 0xfd00 && g[1] === 0x0ec2) return 'metadata';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  return 'public';
}

/** What kind of address a URL host (as `URL.hostname` gives it) is. */
export function hostKind(hostname: string): Kind {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_HOSTS.has(host)) return 'metadata';
  const v4 = ipv4(host);
  if (v4) return kindOfV4(v4);
  const v6 = ipv6(host);
  if (v6) return kindOfV6(v6);
  return 'public';
}

function portOf(url: URL): string {
  return url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
}

/** Whether a URL reaches this sandbox itself (same port on loopback or on the host it is served at). */
function isSelf(world: World, target: URL): boolean {
  for (const own of [world.urls.base, world.urls.management]) {
    let served: URL;
    try {
      served = new URL(own);
    } catch {
      continue;
    }
    if (portOf(served) !== portOf(target)) continue;
    if (served.hostname.toLowerCase() === target.hostname.toLowerCase()) return true;
    const servedKind = hostKind(served.hostname);
    const targetKind = hostKind(target.hostname);
    const local = (k: Kind) => k === 'loopback' || k === 'unspecified';
    // Served on loopback or on every interface: any loopback spelling of the same port is us.
    if ((local(servedKind) || servedKind === 'private') && local(targetKind)) return true;
    if (servedKind === 'unspecified' && targetKind !== 'public') return true;
  }
  return false;
}

const RECEIVER_PATH = /^\/_sandbox\/receiver\/[^/]+\/?$/;

function allowedHost(allow: readonly string[], hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allow.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a || `[${a}]` === host));
}

/**
 * Verdicts per URL, checked at every attempt: parsing a URL costs more than the rest of an
 * attempt's bookkeeping. A verdict holds while the sandbox's own addresses and the destination
 * options it was judged against stay the same (`stamp`).
 */
interface Verdicts {
  base: string;
  management: string;
  options: object;
  privateNetworks: boolean;
  allowHosts: readonly string[] | null;
  byUrl: Map<string, string | null>;
}
/** The world's verdicts (a cache beside its state: never part of its snapshot). */
const verdictsOf = worldSlot('destination verdicts', (): { current?: Verdicts } => ({}), 'aside');
const VERDICT_LIMIT = 1024;

/** Why a webhook URL is refused as a destination, or null when it may receive deliveries. */
export function destinationProblem(world: World, url: string): string | null {
  return cached(world, url, () => judge(world, url));
}

/** The verdict of `key` from the world's cache, computed once while the options stay the same. */
function cached(world: World, key: string, compute: () => string | null): string | null {
  const options = webhookOptionsOf(world);
  const { base, management } = world.urls;
  const held = verdictsOf(world);
  let cache = held.current;
  if (
    cache === undefined ||
    cache.base !== base ||
    cache.management !== management ||
    cache.options !== options ||
    cache.privateNetworks !== options.privateNetworks ||
    cache.allowHosts?.join(',') !== options.allowHosts?.join(',')
  ) {
    cache = {
      base,
      management,
      options,
      privateNetworks: options.privateNetworks,
      allowHosts: options.allowHosts === null ? null : [...options.allowHosts],
      byUrl: new Map(),
    };
    held.current = cache;
  }
  const known = cache.byUrl.get(key);
  if (known !== undefined) return known;
  const verdict = compute();
  if (cache.byUrl.size >= VERDICT_LIMIT) cache.byUrl.clear();
  cache.byUrl.set(key, verdict);
  return verdict;
}

/**
 * Why a destination is refused once its host name resolved to `address` (an IP address): the
 * rules for literal addresses applied to the address in place of the name (the sandbox itself on
 * that port, link-local, metadata, unspecified, private when off), so a name is judged as the
 * address it reaches. The allowlist (`--webhook-allow`) names hosts, so it is not applied again.
 */
export function resolvedProblem(world: World, url: string, address: string): string | null {
  return cached(world, `${url}\u0000${address}`, () => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return WEBHOOKS_ERRORS.urlInvalid;
    }
    const name = target.hostname;
    target.hostname = address.includes(':') ? `[${address}]` : address;
    const verdict = literalProblem(world, target);
    return verdict === null ? null : `${name} resolves to ${address}: ${verdict}`;
  });
}

function judge(world: World, url: string): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return WEBHOOKS_ERRORS.urlInvalid;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return WEBHOOKS_ERRORS.urlScheme;
  // The sandbox's own test receivers stay allowed whatever the allowlist.
  if (RECEIVER_PATH.test(target.pathname) && isSelf(world, target)) return null;
  const problem = literalProblem(world, target);
  if (problem !== null) return problem;
  const options = webhookOptionsOf(world);
  if (options.allowHosts !== null && !allowedHost(options.allowHosts, target.hostname)) return WEBHOOKS_ERRORS.urlNotAllowed;
  return null;
}

/** The address rules (everything but the allowlist). */
function literalProblem(world: World, target: URL): string | null {
  const receiver = RECEIVER_PATH.test(target.pathname);
  if (isSelf(world, target)) return receiver ? null : WEBHOOKS_ERRORS.urlSelf;
  const kind = hostKind(target.hostname);
  if (kind === 'link-local' || kind === 'metadata') return WEBHOOKS_ERRORS.urlLinkLocal;
  if (kind === 'unspecified') return WEBHOOKS_ERRORS.urlUnspecified;
  const options = webhookOptionsOf(world);
  if (kind === 'private' && !options.privateNetworks) return WEBHOOKS_ERRORS.urlPrivate;
  return null;
}

/**
 * The transport's check of the address a destination URL resolved to, one function per URL in a
 * row (a catch-all endpoint's attempts share one), not one per attempt.
 */
export function addressChecks(world: World): (url: string) => (address: string) => string | null {
  let lastUrl = '';
  let last: ((address: string) => string | null) | null = null;
  return (url) => {
    if (last === null || lastUrl !== url) {
      lastUrl = url;
      last = (address) => resolvedProblem(world, url, address);
    }
    return last;
  };
}
