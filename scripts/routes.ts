/** Prints the route listing from the route table: method, surface, path, auth, id, summary. */
import { ROUTES } from '../src/routes.js';
import { surfaceOf } from '../src/engine/router.js';

const rows = ROUTES.map((r) => [
  r.method,
  surfaceOf(r) === 'management' ? '{management_url}' : '{base_url}',
  r.path,
  r.auth + (r.beta ? ` (beta: ${r.beta})` : ''),
  r.id,
  r.summary,
]);
const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
for (const row of rows) {
  console.log(row.map((cell, i) => (i < 5 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  '));
}
console.log(`\n${ROUTES.length} routes`);
