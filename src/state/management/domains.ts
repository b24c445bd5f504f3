/**
 * Org domains (management OpenAPI `ClientFacingOrgDomain`, `VerifyOrgDomainResponse`,
 * `SendOrgDomainInstructionsResponse`). Adding a domain gives it a TXT record to publish;
 * verification succeeds once the record has "propagated" on the sandbox clock
 * (`DOMAIN_PROPAGATION_MS` after the domain was added), and stays verified.
 */
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { stableToken } from '../../engine/ids.js';
import type { Org } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { managementError, MANAGEMENT_ERRORS } from './errors.js';
import { recordMail } from './people.js';
import { dataClass } from '../../engine/world-codec.js';

/** How long after being added a domain's TXT record is visible to verification (virtual time). */
export const DOMAIN_PROPAGATION_MS = 10 * 60 * 1000;

const DOMAIN_RE = /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

interface OrgDomain {
  id: string;
  org_id: string;
  domain: string;
  created_on: string;
  created_ms: number;
  verified: boolean;
  token: string;
}

class DomainStore {
  readonly byId = new Map<string, OrgDomain>();
  /** org id -> (domain name -> id), in creation order. */
  readonly byOrg = new Map<string, Map<string, string>>();
}
dataClass('DomainStore', DomainStore);

const domainsStore = worldSlot('management-domains', () => new DomainStore());

export function domainView(d: OrgDomain): z.input<typeof W.Domain> {
  return {
    domain: d.domain,
    is_verified: d.verified,
    created_on: d.created_on,
    dns_records: [{ type: 'TXT', name: `_vital-verification.${d.domain}`, value: `vital-domain-verification=${d.token}`, ttl: '300' }],
    id: d.id,
  };
}

/** A domain name as stored: trimmed, lower-cased, without a final dot. */
function normaliseDomain(raw: string): string {
  return raw.trim().toLowerCase().replace(/\.$/, '');
}

/** Body rule (`withRules`) of `POST /v1/org/:org_id/domain`: a domain name, once normalised. */
export const domainNameRule = (b: { domain: string }) =>
  !DOMAIN_RE.test(normaliseDomain(b.domain)) && { path: ['domain'], message: MANAGEMENT_ERRORS.invalidDomain, input: b.domain };

export function listDomains(world: World, org: Org): OrgDomain[] {
  const store = domainsStore(world);
  const out: OrgDomain[] = [];
  for (const id of store.byOrg.get(org.id)?.values() ?? []) {
    const d = store.byId.get(id);
    if (d) out.push(d);
  }
  return out;
}

export function getDomain(world: World, org: Org, domainId: string): OrgDomain {
  const d = domainsStore(world).byId.get(domainId);
  if (!d || d.org_id !== org.id) throw managementError.domainNotFound();
  return d;
}

export function addDomain(world: World, org: Org, raw: string, nowMs: number, now: string): OrgDomain {
  const domain = normaliseDomain(raw);
  const store = domainsStore(world);
  let names = store.byOrg.get(org.id);
  if (names?.has(domain)) throw managementError.domainTaken(domain);
  const id = world.ids.uuid('org-domain', org.id);
  const d: OrgDomain = {
    id,
    org_id: org.id,
    domain,
    created_on: now,
    created_ms: nowMs,
    verified: false,
    token: stableToken(32, world.seed, 'org-domain-token', id),
  };
  if (!names) {
    names = new Map();
    store.byOrg.set(org.id, names);
  }
  names.set(domain, id);
  store.byId.set(id, d);
  return d;
}

/** Checks the TXT record: verified once it has propagated on the sandbox clock. */
export function verifyDomain(
  world: World,
  org: Org,
  domainId: string,
  nowMs: number,
): { status: 'verified' | 'pending'; domain: OrgDomain } {
  const d = getDomain(world, org, domainId);
  if (!d.verified && nowMs - d.created_ms >= DOMAIN_PROPAGATION_MS) d.verified = true;
  return { status: d.verified ? 'verified' : 'pending', domain: d };
}

export function deleteDomain(world: World, org: Org, domainId: string): OrgDomain {
  const d = getDomain(world, org, domainId);
  const store = domainsStore(world);
  store.byId.delete(d.id);
  store.byOrg.get(org.id)?.delete(d.domain);
  return d;
}

/** Sends the DNS instructions to an address: recorded in the org's outbox (the sandbox sends no e-mail). */
export function sendDomainInstructions(world: World, org: Org, domainId: string, to: string, now: string): OrgDomain {
  const d = getDomain(world, org, domainId);
  recordMail(world, org, { to, subject: `DNS instructions for ${d.domain}`, kind: 'domain_instructions', sent_at: now, ref_id: d.id });
  return d;
}
