/**
 * Paging, the "API requests only" switch and the search across kept bodies: pure functions over
 * what the control plane answered (the request journal is read whole, newest first, and cut here).
 */
import type { JournalRequest } from './types.js';

export const PAGE_SIZE = 50;

export interface Page<T> {
  items: T[];
  /** 0-based page shown (clamped to the last page). */
  page: number;
  pages: number;
  total: number;
  /** 1-based position of the first and last item shown (0 and 0 when none). */
  first: number;
  last: number;
}

/** One page of a list; a page past the end shows the last one. */
export function pageOf<T>(all: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  const at = Math.min(Math.max(0, Math.floor(page) || 0), pages - 1);
  const items = all.slice(at * size, at * size + size);
  return { items, page: at, pages, total: all.length, first: items.length ? at * size + 1 : 0, last: at * size + items.length };
}

/** Paths that are not the API a client calls: the control plane, test receivers, docs, the pointer page, the favicon. */
const NOT_API = /^\/(?:_sandbox(?:\/|$)|docs(?:\/|$)|openapi(?:\.json|\.yaml)?$|favicon\.ico$|$)/;

/** Whether a journal entry is a request to the API (data or management surface), not to the sandbox's own pages. */
export function isApiRequest(r: Pick<JournalRequest, 'path' | 'surface' | 'route_id'>): boolean {
  if (r.surface === 'management') return true;
  if (r.route_id && /^(?:sandbox|meta|docs)\./.test(r.route_id)) return false;
  return !NOT_API.test(r.path);
}

/** Entries whose path, query, kept request or response body contains `text` (case-insensitive); all for ''. */
export function searchBodies(entries: readonly JournalRequest[], text: string): JournalRequest[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...entries];
  return entries.filter((r) =>
    [r.path, r.query, r.request.body, r.response.body].some((s) => typeof s === 'string' && s.toLowerCase().includes(needle)),
  );
}

/** Where the search text was found in an entry, for the row: `request body`, `response body`, `path`. */
export function foundIn(r: JournalRequest, text: string): string[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [];
  const where: string[] = [];
  if (`${r.path}?${r.query ?? ''}`.toLowerCase().includes(needle)) where.push('path');
  if (r.request.body?.toLowerCase().includes(needle)) where.push('request body');
  if (r.response.body?.toLowerCase().includes(needle)) where.push('response body');
  return where;
}
