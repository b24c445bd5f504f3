#!/usr/bin/env bash
# Applies the worked example of docs/ENGINE.md ("Adding an endpoint") to a scratch copy of this
# checkout exactly as the page says (docs/engine-example/), then runs the type check, the
# route-table tests and the example's own test there, and removes the copy. `npx tsc -b` already
# type-checks the example in place, test/engine/engine-example.test.ts checks that the page quotes
# it and test/engine/engine-example-applied.test.ts checks its route in process (both in `npm test`);
# this script runs the full suites on the applied copy (minutes of CPU: `npm test` runs it when
# HEALTH_SANDBOX_SLOW_TESTS=1, as .ci/run sets; `npm run check:example` by hand).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
parent=$(mktemp -d /tmp/engine-example.XXXXXX)
trap 'rm -rf "$parent"' EXIT
scratch=$parent/repo
mkdir "$scratch"
# The reference documents sit beside the checkout (../shared); the copy sees them there too.
if [ -d "$root/../shared" ]; then ln -s "$(cd "$root/../shared" && pwd)" "$parent/shared"; fi
tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -C "$scratch" -xf -
ln -s "$root/node_modules" "$scratch/node_modules"
cd "$scratch"
ex=docs/engine-example
region() { awk -v name="$2" '$0 ~ "// #region " name "$" {on=1; next} /\/\/ #endregion/ {on=0} on' "$1"; }
# Step 1: the domain function, a new file. Step 3: the test, a new file.
region $ex/src/state/labs/order-by-sample.ts domain > src/state/labs/order-by-sample.ts
region $ex/test/labs/order-by-sample.test.ts test > test/labs/order-by-sample.test.ts
# Step 2: the import and the route entry, into src/handlers/labs/order-actions.ts.
target=src/handlers/labs/order-actions.ts
region $ex/src/handlers/labs/order-by-sample-route.ts import > /tmp/$$.import
region $ex/src/handlers/labs/order-by-sample-route.ts route > /tmp/$$.route
awk -v imp=/tmp/$$.import -v route=/tmp/$$.route '
  { lines[NR] = $0; if ($0 ~ /^import /) last = NR }
  END {
    for (i = 1; i <= NR; i++) {
      print lines[i]
      if (i == last) while ((getline l < imp) > 0) print l
      if (lines[i] ~ /^export const orderActionRoutes = \[/) while ((getline l < route) > 0) print l
    }
  }' "$target" > /tmp/$$.target && mv /tmp/$$.target "$target"
rm -f /tmp/$$.import /tmp/$$.route
rm -rf $ex && sed -i 's#, "docs/engine-example"##g' tsconfig.json
grep -q "id: 'orders.by_sample'" "$target" && grep -q "^import { orderBySample }" "$target" || { echo "the route entry was not applied to $target" >&2; exit 1; }
diff "$root/$target" "$target" || true
npx tsc -b
npx tsc -b tsconfig.build.json
npx vitest run test/labs/order-by-sample.test.ts test/route-table/adapters-parity.test.ts test/route-table/wire-answers.test.ts \
  test/route-table/determinism-routes.test.ts test/route-table/get-read-only.test.ts test/engine/isolation.test.ts test/route-table/openapi-documents.test.ts
