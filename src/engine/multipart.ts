/**
 * Form bodies (`multipart/form-data` and `application/x-www-form-urlencoded`) for routes that
 * declare `bodyKind: 'form'`, parsed the way FastAPI / Starlette read them: every field becomes a
 * list of its values (text, or an `UploadedFile` for a part with a filename); a body of another
 * type reads as an empty form (so the route's required fields answer 422 `missing`); a multipart
 * body that cannot be parsed answers 400 `There was an error parsing the body`. Browser-safe:
 * bytes and TextDecoder only. The engine's body limit applies before this runs.
 */
import { z } from 'zod';
import { apiError, type ApiError } from './errors.js';

export interface UploadedFile {
  readonly kind: 'upload';
  filename: string;
  /** The part's Content-Type (lower case, no parameters), null when absent. */
  content_type: string | null;
  bytes: Uint8Array;
}

type FormValue = string | UploadedFile;
type FormFields = Record<string, FormValue[]>;

export const FORM_MESSAGES = { parseError: 'There was an error parsing the body' } as const;

const parseError = (): ApiError => apiError(400, FORM_MESSAGES.parseError);
const latin1 = new TextDecoder('latin1');
const utf8 = new TextDecoder('utf-8');

function mainType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function param(header: string, name: string): string | null {
  const re = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i');
  const m = re.exec(header);
  if (!m) return null;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? '');
}

/** Index of `needle` in `hay` at or after `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0] as number;
  const last = hay.length - needle.length;
  outer: for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    for (let k = 1; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    return i;
  }
  return -1;
}

function add(out: FormFields, name: string, value: FormValue): void {
  (out[name] ??= []).push(value);
}

/** Parses a multipart/form-data body; throws the 400 parse error when it is malformed. */
export function parseMultipart(body: Uint8Array, contentType: string): FormFields {
  const boundary = param(contentType, 'boundary');
  if (!boundary || boundary.length > 200) throw parseError();
  const enc = new TextEncoder();
  const delimiter = enc.encode(`--${boundary}`);
  const next = enc.encode(`\r\n--${boundary}`);
  const out: FormFields = Object.create(null) as FormFields;
  let pos = indexOf(body, delimiter, 0);
  if (pos < 0) throw parseError();
  pos += delimiter.length;
  for (;;) {
    if (body[pos] === 45 && body[pos + 1] === 45) return out; // "--": the closing delimiter
    if (body[pos] !== 13 || body[pos + 1] !== 10) throw parseError();
    pos += 2;
    const headEnd = indexOf(body, enc.encode('\r\n\r\n'), pos);
    if (headEnd < 0) throw parseError();
    const head = latin1.decode(body.subarray(pos, headEnd));
    const end = indexOf(body, next, headEnd + 4);
    if (end < 0) throw parseError();
    const data = body.subarray(headEnd + 4, end);
    let disposition = '';
    let type: string | null = null;
    for (const line of head.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (key === 'content-disposition') disposition = value;
      else if (key === 'content-type') type = mainType(value) || null;
    }
    const name = param(disposition, 'name');
    if (!disposition.toLowerCase().startsWith('form-data') || name === null) throw parseError();
    const filename = param(disposition, 'filename');
    if (filename !== null) add(out, name, { kind: 'upload', filename, content_type: type, bytes: new Uint8Array(data) });
    else add(out, name, utf8.decode(data));
    pos = end + next.length;
  }
}

/** The body of a form route as lists of values per field (an empty form for other types). */
export function readForm(body: Uint8Array, contentType: string | undefined): FormFields {
  const type = mainType(contentType ?? '');
  if (type === 'multipart/form-data') return parseMultipart(body, contentType ?? '');
  const out: FormFields = Object.create(null) as FormFields;
  if (type === 'application/x-www-form-urlencoded') {
    for (const [k, v] of new URLSearchParams(utf8.decode(body))) add(out, k, v);
  }
  return out;
}

function isUpload(value: unknown): value is UploadedFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'upload' &&
    (value as { bytes?: unknown }).bytes instanceof Uint8Array
  );
}

/** A scalar form field: the last value given, checked by `inner` (a file where text is expected reads as its name). */
export function formField<T extends z.ZodType>(inner: T) {
  return z.preprocess((v) => {
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    return isUpload(last) ? last.filename : last;
  }, inner);
}

/** A list of uploaded files (pydantic's message for a text value where a file is expected). */
export function formFiles() {
  const upload = z.custom<UploadedFile>((v) => isUpload(v), { message: "Value error, Expected UploadFile, received: <class 'str'>" });
  return z.array(upload);
}
