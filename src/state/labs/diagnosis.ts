/**
 * Diagnosis search and ICD-10 code validation (spec 4.8; data OpenAPI
 * `GET /v3/insurance/search/diagnosis`, `POST /v3/insurance/validate_icd_codes`) over the fixed
 * ICD-10-CM catalogue of `fixtures/labs/icd10.ts`. The indexes are built once: codes by compact
 * code (sorted, for prefix ranges), description words (sorted vocabulary, for word prefixes),
 * and the derived non-billable categories.
 */
import { EXCLUDES1, EXCLUDES2, ICD_CODES, type IcdCode } from '../../fixtures/labs/icd10.js';
import { LABS_TEXTS } from './errors.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

const DIAGNOSIS_LIMIT = 50;

interface Index {
  byCompact: Map<string, IcdCode>;
  /** Compact codes, sorted. */
  compact: string[];
  /** Description word -> codes (catalogue order). */
  words: Map<string, IcdCode[]>;
  /** Vocabulary, sorted. */
  vocabulary: string[];
  categories: Set<string>;
  order: Map<IcdCode, number>;
}

const compactOf = (code: string): string => code.replace(/\./g, '').toUpperCase();
const dotted = (compact: string): string => (compact.length > 3 ? `${compact.slice(0, 3)}.${compact.slice(3)}` : compact);

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w.length > 0);
}

let built: Index | undefined;

function index(): Index {
  if (built) return built;
  const byCompact = new Map<string, IcdCode>();
  const words = new Map<string, IcdCode[]>();
  const categories = new Set<string>();
  const order = new Map<IcdCode, number>();
  ICD_CODES.forEach((c, i) => {
    const compact = compactOf(c.code);
    byCompact.set(compact, c);
    order.set(c, i);
    for (const w of new Set(wordsOf(c.description))) {
      const list = words.get(w);
      if (list) list.push(c);
      else words.set(w, [c]);
    }
    for (let n = 3; n < compact.length; n++) categories.add(compact.slice(0, n));
  });
  for (const compact of byCompact.keys()) categories.delete(compact);
  built = { byCompact, compact: [...byCompact.keys()].sort(), words, vocabulary: [...words.keys()].sort(), categories, order };
  return built;
}

/** Items of a sorted list that start with `prefix` (binary search to the first, then walk the range). */
function prefixRange(sorted: readonly string[], prefix: string): string[] {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && (sorted[i] as string).startsWith(prefix); i++) out.push(sorted[i] as string);
  return out;
}

export function diagnosisView(c: IcdCode): z.input<typeof W.DiagnosisInformation> {
  return { diagnosis_code: c.code, description: c.description, is_secondary: c.is_secondary };
}

/**
 * Codes matching a query: a code or code prefix (`E11`, `e11.6`, `E116`) gives the codes under it;
 * otherwise every query word must start a word of the description. Catalogue order, at most 50.
 */
export function searchDiagnosis(query: string): IcdCode[] {
  const idx = index();
  const q = query.trim();
  if (q === '') return [];
  const compact = compactOf(q);
  if (/^[A-Z][0-9][0-9A-Z]*$/.test(compact)) {
    return prefixRange(idx.compact, compact)
      .map((k) => idx.byCompact.get(k) as IcdCode)
      .sort((a, b) => (idx.order.get(a) as number) - (idx.order.get(b) as number))
      .slice(0, DIAGNOSIS_LIMIT);
  }
  let found: IcdCode[] | null = null;
  for (const w of new Set(wordsOf(q))) {
    const hits = new Set<IcdCode>();
    for (const word of prefixRange(idx.vocabulary, w)) for (const c of idx.words.get(word) ?? []) hits.add(c);
    const next: IcdCode[] = found === null ? [...hits] : (found as IcdCode[]).filter((c) => hits.has(c));
    if (next.length === 0) return [];
    found = next;
  }
  return [...(found ?? [])].sort((a, b) => (idx.order.get(a) as number) - (idx.order.get(b) as number)).slice(0, DIAGNOSIS_LIMIT);
}

interface IcdValidation {
  valid: boolean;
  errors: string[];
  violations: Array<{ code: string; conflicts_with: string; type: string }>;
  warnings: Array<{ code: string; overlaps_with: string; type: string }>;
}

const inFamily = (code: string, family: string): boolean => compactOf(code).startsWith(compactOf(family));

/**
 * Checks a list of codes: format, existence, billability (errors), Excludes1 conflicts
 * (violations) and Excludes2 overlaps (warnings). Valid means no errors and no violations.
 * Codes are accepted with or without the dot and in any case; a repeated code counts once.
 */
export function validateIcdCodes(codes: readonly string[]): IcdValidation {
  const idx = index();
  const errors: string[] = [];
  const known: string[] = [];
  const seen = new Set<string>();
  for (const raw of codes) {
    const compact = compactOf(raw.trim());
    if (!/^[A-Z][0-9][0-9A-Z][0-9A-Z]{0,4}$/.test(compact)) {
      errors.push(LABS_TEXTS.icdInvalidFormat(raw));
      continue;
    }
    if (seen.has(compact)) continue;
    seen.add(compact);
    const code = idx.byCompact.get(compact);
    if (code) known.push(code.code);
    else if (idx.categories.has(compact)) errors.push(LABS_TEXTS.icdNotBillable(dotted(compact)));
    else errors.push(LABS_TEXTS.icdUnknown(dotted(compact)));
  }
  const violations: IcdValidation['violations'] = [];
  const warnings: IcdValidation['warnings'] = [];
  for (const a of known) {
    for (const b of known) {
      if (a === b) continue;
      if (EXCLUDES1.some(([x, y]) => inFamily(a, x) && inFamily(b, y))) violations.push({ code: a, conflicts_with: b, type: 'excludes1' });
      if (EXCLUDES2.some(([x, y]) => inFamily(a, x) && inFamily(b, y))) warnings.push({ code: a, overlaps_with: b, type: 'excludes2' });
    }
  }
  return { valid: errors.length === 0 && violations.length === 0, errors, violations, warnings };
}
