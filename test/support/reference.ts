/**
 * Where the reference documents are (`../shared/reference`, beside the repository, never copied
 * into it) and what happens when they are absent: checks against them skip, and the run says so
 * once (test/support/reference-notice.ts); with HEALTH_SANDBOX_REQUIRE_REFERENCE=1 (CI) their
 * absence fails the run instead.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const REFERENCE_DIR = resolve(here, '../../../shared/reference');
export const OPENAPI_DIR = resolve(REFERENCE_DIR, 'openapi');

/** True when the run must check against the reference (CI sets HEALTH_SANDBOX_REQUIRE_REFERENCE=1). */
const REFERENCE_REQUIRED = process.env.HEALTH_SANDBOX_REQUIRE_REFERENCE === '1';

/** The one line a run prints when it skips the reference checks. */
export const SKIP_NOTICE = `reference checks skipped: ${OPENAPI_DIR} is absent (a clone without ../shared); HEALTH_SANDBOX_REQUIRE_REFERENCE=1 makes them required`;

/** Whether the named reference file exists; throws when it is required and absent. */
export function referenceFile(path: string): boolean {
  if (existsSync(path)) return true;
  if (REFERENCE_REQUIRED) throw new Error(`HEALTH_SANDBOX_REQUIRE_REFERENCE=1 but ${path} is absent`);
  return false;
}
