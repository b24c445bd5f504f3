/**
 * `npm run conformance`: every operation of the real data and management OpenAPI documents,
 * served or not, parameters compared, live answers validated (leniently and strictly). Prints a
 * table per tag and the totals, writes `conformance.json`. Without `../shared` it says so and
 * exits 0.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { conformanceReport } from './conformance/report.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(root, '../shared/reference/openapi');
const report = await conformanceReport(dir);
if (!report) {
  console.log(`conformance: ${dir} is absent; nothing to compare against (skipped).`);
  process.exit(0);
}
const byTag = new Map<
  string,
  { total: number; served: number; live: number; ok: number; valid: number; strict: number; mismatches: number }
>();
for (const op of report.operations) {
  const key = `${op.doc}:${op.tag}`;
  const row = byTag.get(key) ?? { total: 0, served: 0, live: 0, ok: 0, valid: 0, strict: 0, mismatches: 0 };
  row.total++;
  if (op.routeId) row.served++;
  if (op.live) {
    row.live++;
    if (op.live.status < 300) row.ok++;
    if (op.live.valid) row.valid++;
    if (op.live.strictValid) row.strict++;
  }
  row.mismatches += op.parameterMismatches.length;
  byTag.set(key, row);
}
console.log('| tag | operations | served | live-checked | answered 2xx | schema-valid | strict-valid | parameter mismatches |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [tag, r] of [...byTag].sort())
  console.log(`| ${tag} | ${r.total} | ${r.served} | ${r.live} | ${r.ok} | ${r.valid} | ${r.strict} | ${r.mismatches} |`);
const t = report.totals;
console.log(
  `| **total** | ${t.operations} | ${t.served} | ${t.checkedLive} | ${t.succeeded} | ${t.schemaValid} | ${t.strictValid} | ${t.parameterMismatches} |`,
);
console.log(`error answers also checked: ${t.errorChecked}`);
for (const op of report.operations) {
  for (const m of op.parameterMismatches) console.log(`mismatch ${op.method} ${op.path}: ${m}`);
  if (op.live && (!op.live.valid || !op.live.strictValid))
    console.log(
      `${op.live.valid ? 'strict-invalid' : 'invalid'} ${op.method} ${op.path} (${op.live.status}): ${op.live.errors.join('; ')}`,
    );
}
const failed = report.operations.filter((o) => o.live?.reason);
if (failed.length)
  console.log(`\nchecked live on an error answer only (${failed.length}; status and error shape checked, success body not):`);
for (const op of failed) console.log(`- ${op.method} ${op.path}: ${op.live?.reason}`);
const arranged = report.operations.filter((o) => o.errorLive);
if (arranged.length)
  console.log(`\nchecked on an error answer, then on the success answer after arranging its precondition (${arranged.length}):`);
for (const op of arranged) {
  const e = op.errorLive;
  const shape = e?.valid && e.strictValid ? 'error shape valid' : `error shape INVALID: ${e?.errors.join('; ')}`;
  console.log(`- ${op.method} ${op.path}: ${e?.reason ?? `answered ${e?.status}`} (${shape}); then ${op.live?.status}`);
}
const unchecked = report.operations.filter((o) => !o.live);
for (const op of unchecked)
  console.log(`not checked live: ${op.method} ${op.path}: ${op.routeId ? 'served but not called' : 'not served'}`);
if (report.extraRoutes.length) console.log(`served beyond the documents: ${report.extraRoutes.join(', ')}`);
writeFileSync(resolve(root, 'conformance.json'), `${JSON.stringify(report, null, 2)}\n`);
console.log('wrote conformance.json');
