/**
 * How alike two request paths are, from 0 (nothing shared) to 1 (the same), for ranking the
 * closest requests when `requests.expect` finds none: segment by segment, an equal segment counts
 * 1, an id against an id or a `{param}` 0.9, other segments by their edit distance; segments one
 * path has and the other lacks count 0. `GET /v2/users` is closest to `/v2/user/{id}` and
 * `/v2/usr`, far from `/_sandbox/receiver/hooks`.
 */

const PARAM = /^(?:\{[^}]*\}|:[A-Za-z_]\w*|\*)$/;
const ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[a-z]+_[A-Za-z0-9]{6,})$/i;

/** Levenshtein distance (small strings: path segments). */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

function segmentSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const aParam = PARAM.test(a) || ID.test(a);
  const bParam = PARAM.test(b) || ID.test(b);
  if (aParam && bParam) return 0.9;
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : Math.max(0, 1 - editDistance(a.toLowerCase(), b.toLowerCase()) / longest);
}

const segments = (path: string) => path.split(/[?#]/)[0]!.split('/').filter(Boolean);

export function pathSimilarity(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  const n = Math.max(x.length, y.length);
  if (n === 0) return 1;
  let sum = 0;
  for (let i = 0; i < Math.min(x.length, y.length); i++) sum += segmentSimilarity(x[i]!, y[i]!);
  return sum / n;
}

/** A path to compare with from a RegExp given to `expect` (its literal parts; wildcards as one segment each). */
export function pathOfPattern(pattern: RegExp): string {
  return pattern.source
    .replace(/^\^|\$$/g, '')
    .replace(/\\\//g, '/')
    .replace(/\[[^\]]*\][+*?]?|\.[+*?]|\\[wdsS][+*?]?|\([^)]*\)[+*?]?/g, '{x}')
    .replace(/\\(.)/g, '$1');
}
