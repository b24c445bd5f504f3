/** What the page remembers between redraws: filter values, the page of each list, the switches. */
export const ui: {
  filters: Record<string, Record<string, string>>;
  pages: Record<string, number>;
  apiOnly: boolean;
  notes: Record<string, string>;
} = { filters: {}, pages: {}, apiOnly: true, notes: {} };

export function filtersOf(key: string): Record<string, string> {
  ui.filters[key] ??= {};
  return ui.filters[key];
}

export function pageNumber(key: string): number {
  return ui.pages[key] ?? 0;
}
