/**
 * Opaque page cursors of the wearables area: `<tag>:<integer>` in base64url (no padding), through
 * the engine's byte helpers (the core runs in browsers). A cursor that does not decode to
 * the expected tag and a safe integer was not issued by the sandbox: 422 `Invalid cursor`.
 */
import { decodeText64, encodeText64 } from '../../engine/bytes.js';
import { wearablesError } from './errors.js';

export function encodeCursor(tag: string, value: number): string {
  return encodeText64(`${tag}:${value}`);
}

/** The integer a cursor carries, null without a cursor; 422 when it is not ours. */
export function decodeCursor(tag: string, cursor: string | null | undefined, where: string): number | null {
  if (!cursor) return null;
  const text = decodeText64(cursor);
  const m = new RegExp(`^${tag}:(-?\\d+)$`).exec(text);
  const value = m ? Number(m[1]) : Number.NaN;
  // A value outside what a Date can show was not issued by us.
  if (!Number.isSafeInteger(value) || Math.abs(value) > 8.64e15) throw wearablesError.invalidCursor(where, cursor);
  return value;
}
