/**
 * Payor search (spec 4.8; api-facts A.12): the platform catalogue plus the payors a team
 * created (`POST /v3/payor`, source `team`), searched by fuzzy insurance name (every query word
 * must match a word of the name or an alias: exactly, as a prefix, or within one typo) or by a
 * clearinghouse's payor id.
 */
import { PAYOR_PROVIDERS, platformPayors, type PayorProvider, type PayorRecord } from '../../fixtures/labs/payors.js';
import type { Domain } from '../domain-context.js';

/** The payor search providers, for request schemas. */
export { PAYOR_PROVIDERS };
import { partitionSlot } from '../../engine/world.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { dataClass } from '../../engine/world-codec.js';

const SEARCH_LIMIT = 50;

class TeamPayorStore {
  private readonly list: PayorRecord[] = [];
  private readonly byCode = new Map<string, PayorRecord>();

  add(payor: PayorRecord): void {
    this.list.push(payor);
    this.byCode.set(payor.payor_code, payor);
  }

  get(code: string): PayorRecord | undefined {
    return this.byCode.get(code);
  }

  all(): readonly PayorRecord[] {
    return this.list;
  }
}
dataClass('TeamPayorStore', TeamPayorStore);

const teamPayorsOf = partitionSlot('team_payors', () => new TeamPayorStore());

let platformByCode: Map<string, PayorRecord> | undefined;

/** A payor by code: the team's own payors, then the platform catalogue. */
export function payorByCode(d: Domain, code: string): PayorRecord | undefined {
  const { world, partition } = d;
  platformByCode ??= new Map(platformPayors().map((p) => [p.payor_code, p]));
  return teamPayorsOf(partition, world).get(code) ?? platformByCode.get(code);
}

interface NewTeamPayor {
  name: string;
  address: { first_line: string; second_line?: string | null | undefined; country: string; zip: string; city: string; state: string };
  provider?: PayorProvider | null | undefined;
  provider_payor_id?: string | null | undefined;
}

/** Creates a team payor (`POST /v3/payor`, source `team`) that payor search then finds. */
export function createTeamPayor(d: Domain, input: NewTeamPayor): PayorRecord {
  const { world, partition } = d;
  const payor: PayorRecord = {
    payor_code: `TEAM_${world.ids.token('team_payor', 8, partition.id).toUpperCase()}`,
    name: input.name.trim(),
    aliases: [],
    org_address: {
      first_line: input.address.first_line,
      second_line: input.address.second_line ?? '',
      country: input.address.country,
      zip: input.address.zip,
      city: input.address.city,
      state: input.address.state,
    },
    source: 'team',
    provider_ids: input.provider && input.provider_payor_id ? { [input.provider]: input.provider_payor_id } : {},
  };
  teamPayorsOf(partition, world).add(payor);
  return payor;
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

/** A payor name's or alias's words and their joined form, worked out once per text (issue 45: not per search). */
interface Words {
  words: readonly string[];
  joined: string;
}
const textWords = new Map<string, Words>();

function wordsOfText(text: string): Words {
  let w = textWords.get(text);
  if (!w) {
    if (textWords.size >= 20_000) textWords.clear();
    const list = words(text);
    w = { words: list, joined: list.join(' ') };
    textWords.set(text, w);
  }
  return w;
}

/**
 * `a.localeCompare(b, 'en')`, with one collator, made on the first search (building it at import
 * cost the CLI's start about 5 ms).
 */
let collate: ((a: string, b: string) => number) | undefined;
const byName = (a: string, b: string): number => (collate ??= new Intl.Collator('en').compare)(a, b);

/** Whether two words are within one edit (insertion, deletion or substitution). */
function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function wordScore(q: string, target: readonly string[]): number {
  let best = 0;
  for (const t of target) {
    if (t === q) return 3;
    if (t.startsWith(q)) best = Math.max(best, 2);
    else if (q.length >= 4 && withinOneEdit(q, t)) best = Math.max(best, 1);
  }
  return best;
}

/** Score of a query against one string (0 = no match). */
function textScore(query: readonly string[], joinedQuery: string, text: string): number {
  const { words: target, joined } = wordsOfText(text);
  let total = 0;
  for (const q of query) {
    const sc = wordScore(q, target);
    if (sc === 0) return 0;
    total += sc;
  }
  if (joined === joinedQuery) total += 10;
  else if (joined.startsWith(joinedQuery)) total += 4;
  return total;
}

function payorScore(query: readonly string[], joined: string, payor: PayorRecord): number {
  let best = textScore(query, joined, payor.name);
  for (const alias of payor.aliases) best = Math.max(best, textScore(query, joined, alias) - 1);
  return best;
}

interface Scored {
  payor: PayorRecord;
  score: number;
}

/**
 * The platform payors a query's words match, with their scores, in catalogue order: worked out
 * once per query (the catalogue never changes; issue 45: a repeated search scored every payor).
 */
const platformMatches = new Map<string, readonly Scored[]>();
/** Matches held by `platformMatches` together (bounded: the memo starts over past 100,000). */
let platformMatchCount = 0;

function platformMatchesOf(query: readonly string[], joined: string): readonly Scored[] {
  let found = platformMatches.get(joined);
  if (!found) {
    if (platformMatches.size >= 1_000 || platformMatchCount >= 100_000) {
      platformMatches.clear();
      platformMatchCount = 0;
    }
    found = scored(platformPayors(), query, joined);
    platformMatches.set(joined, found);
    platformMatchCount += found.length + 1;
  }
  return found;
}

/** The payors of `pool` the query matches, with their scores, in pool order. */
function scored(pool: readonly PayorRecord[], query: readonly string[], joined: string): Scored[] {
  const out: Scored[] = [];
  for (const payor of pool) {
    const score = payorScore(query, joined, payor);
    if (score > 0) out.push({ payor, score });
  }
  return out;
}

interface PayorQuery {
  insurance_name?: string | null;
  provider?: PayorProvider | null;
  provider_payor_id?: string | null;
}

/** Searches the platform catalogue and a team's payors. */
export function searchPayors(d: Domain, query: PayorQuery): PayorRecord[] {
  const { world, partition } = d;
  const team = teamPayorsOf(partition, world).all();
  const provider = query.provider;
  const id = query.provider_payor_id ? query.provider_payor_id.trim().toUpperCase() : null;
  /** Whether a payor passes the provider and provider payor id filters. */
  const kept = (x: PayorRecord): boolean => {
    if (provider && x.provider_ids[provider] === undefined) return false;
    if (id === null) return true;
    return provider ? x.provider_ids[provider]?.toUpperCase() === id : Object.values(x.provider_ids).some((v) => v.toUpperCase() === id);
  };
  const name = query.insurance_name?.trim() ?? '';
  if (name === '') return [...platformPayors(), ...team].filter(kept).slice(0, SEARCH_LIMIT);
  const q = words(name);
  if (q.length === 0) return [];
  const joined = q.join(' ');
  // The catalogue's matches, then the team's, each in its order (the sort is stable).
  return [...platformMatchesOf(q, joined).filter((x) => kept(x.payor)), ...scored(team.filter(kept), q, joined)]
    .sort((x, y) => y.score - x.score || byName(x.payor.name, y.payor.name))
    .slice(0, SEARCH_LIMIT)
    .map((x) => x.payor);
}

/** `ClientFacingPayorSearchResponse` / `ClientFacingPayor`. */
export function payorView(p: PayorRecord): z.input<typeof W.Payor> {
  return { payor_code: p.payor_code, name: p.name, aliases: p.aliases, org_address: { ...p.org_address }, source: p.source };
}

/** `ClientFacingPayorSearchResponseDeprecated`: the payor with `code` in place of `payor_code`. */
export function deprecatedPayorView(p: PayorRecord): z.input<typeof W.PayorSearchDeprecated> {
  return { code: p.payor_code, name: p.name, aliases: p.aliases, org_address: { ...p.org_address }, source: p.source };
}
