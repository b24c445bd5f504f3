/** Vitest global setup: one visible line for the whole run when the reference checks skip (or a failure when CI requires them). */
import { OPENAPI_DIR, referenceFile, SKIP_NOTICE } from './reference.js';

export default function referenceNotice(): void {
  if (!referenceFile(OPENAPI_DIR)) console.warn(SKIP_NOTICE);
}
