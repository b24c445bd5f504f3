/** Splits a raw query string into a multi-valued map (arrays as repeated keys, as the SDK sends them). */
export function splitQuery(search: string): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const list = query[key];
    if (list) list.push(value);
    else query[key] = [value];
  }
  return query;
}
