/**
 * Payor search (spec 4.8; api-facts A.12): the platform catalogue plus the payors a team
 * created (`POST /v3/payor`, source `team`), searched by fuzzy insurance name (every query word
 * must match a word of the name or an alias: exactly, as a prefix, or within one typo) or by a
 * clearinghouse's payor id.
 */
import { platformPayors, type PayorProvider, type PayorRecord } from '../../fixtures/labs/payors.js';
import { partitionSlot } from '../../engine/world.js';

const SEARCH_LIMIT = 50;

class TeamPayorStore {
  readonly list: PayorRecord[] = [];
  readonly byCode = new Map<string, PayorRecord>();

  add(payor: PayorRecord): void {
    this.list.push(payor);
    this.byCode.set(payor.payor_code, payor);
  }
}

export const teamPayorsOf = partitionSlot('team_payors', () => new TeamPayorStore());

function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

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
  const target = words(text);
  let total = 0;
  for (const q of query) {
    const sc = wordScore(q, target);
    if (sc === 0) return 0;
    total += sc;
  }
  if (target.join(' ') === joinedQuery) total += 10;
  else if (target.join(' ').startsWith(joinedQuery)) total += 4;
  return total;
}

function payorScore(query: readonly string[], joined: string, payor: PayorRecord): number {
  let best = textScore(query, joined, payor.name);
  for (const alias of payor.aliases) best = Math.max(best, textScore(query, joined, alias) - 1);
  return best;
}

interface PayorQuery {
  insurance_name?: string | null;
  provider?: PayorProvider | null;
  provider_payor_id?: string | null;
}

/** Searches the platform catalogue and a team's payors. */
export function searchPayors(team: TeamPayorStore, query: PayorQuery): PayorRecord[] {
  const all = [...platformPayors(), ...team.list];
  let pool = all;
  if (query.provider) {
    const p = query.provider;
    pool = pool.filter((x) => x.provider_ids[p] !== undefined);
  }
  if (query.provider_payor_id) {
    const id = query.provider_payor_id.trim().toUpperCase();
    pool = pool.filter((x) =>
      query.provider ? x.provider_ids[query.provider]?.toUpperCase() === id : Object.values(x.provider_ids).some((v) => v.toUpperCase() === id),
    );
  }
  const name = query.insurance_name?.trim() ?? '';
  if (name === '') return pool.slice(0, SEARCH_LIMIT);
  const q = words(name);
  if (q.length === 0) return [];
  const joined = q.join(' ');
  return pool
    .map((payor) => ({ payor, score: payorScore(q, joined, payor) }))
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || x.payor.name.localeCompare(y.payor.name, 'en'))
    .slice(0, SEARCH_LIMIT)
    .map((x) => x.payor);
}

/** `ClientFacingPayorSearchResponse` / `ClientFacingPayor`. */
export function payorView(p: PayorRecord): Record<string, unknown> {
  return { payor_code: p.payor_code, name: p.name, aliases: p.aliases, org_address: { ...p.org_address }, source: p.source };
}
