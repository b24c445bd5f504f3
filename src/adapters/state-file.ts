/**
 * The CLI's state file (`--state-file`, docs/simulated/engine.md "The state file"): the world
 * document as lines of JSON, one header, one line per input, then an end line holding the count
 * of inputs and a checksum of every byte before it. An input is appended (over the old end line,
 * one write, then fsync) before its answer leaves, so a SIGKILL loses nothing answered; a new world
 * (reset, scenario, restore, import) rewrites the file whole (temporary file, fsync, rename).
 * Reading refuses, naming what is wrong, any file that is not exactly such a document: a file cut
 * at any offset has no valid end line.
 */
import * as nodeFs from 'node:fs';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  DOCUMENT_LIMITS,
  type LogEntry,
  LogSinkError,
  STATE_FILE_BYTES,
  WORLD_FORMAT,
  WORLD_VERSIONS,
  type WorldDocument,
} from '../engine/persist.js';
import { parseWorldDocument, VERSIONS_READ, WorldDocumentError } from '../engine/persist-document.js';
import type { StateSink } from '../sandbox.js';

const STATE_FORMAT = 'health-sandbox-state';

/** Why a state file cannot be used (the message names the file). */
export class StateFileError extends Error {}

/** FNV-1a, 32 bits, continued from `hash`. */
function fnv(bytes: Uint8Array, hash = 0x811c9dc5): number {
  let h = hash;
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i] as number;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const hex = (n: number): string => n.toString(16).padStart(8, '0');
/** The end line: the count of inputs, the checksum, and the stores' state (engine/store-state.ts) when any store saved one. */
const endLine = (count: number, hash: number, stores?: Record<string, unknown>): string =>
  `${JSON.stringify(stores === undefined ? { end: count, fnv: hex(hash) } : { end: count, fnv: hex(hash), stores })}\n`;

/** The world a state file holds; undefined when there is no file; a StateFileError when it cannot be used. */
export function readStateFile(path: string): WorldDocument | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`state file ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const fail = (what: string): never => {
    throw new StateFileError(`state file ${path}: ${what}; refusing to start (the file is left as it is)`);
  };
  if (bytes.length === 0) fail('is empty');
  if (isWorldDocument(bytes))
    fail('is a world document (health-sandbox export, GET /_sandbox/world), not a state file: use --world-file to start from it');
  if (bytes[bytes.length - 1] !== 0x0a) fail('is truncated (it does not end with a complete line)');
  const lastStart = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  let end: { end?: unknown; fnv?: unknown; stores?: unknown } = {};
  try {
    end = JSON.parse(bytes.subarray(lastStart).toString('utf8')) as typeof end;
  } catch {
    fail('is truncated or corrupt (its last line is not a complete end line)');
  }
  if (typeof end.end !== 'number' || typeof end.fnv !== 'string') fail('is truncated (it has no end line: it was cut short)');
  if (hex(fnv(bytes.subarray(0, lastStart))) !== end.fnv) fail('is corrupt (its checksum does not match its contents)');
  const lines = bytes.subarray(0, lastStart).toString('utf8').split('\n');
  lines.pop();
  let header: { format?: unknown; version?: unknown; build?: unknown; state?: unknown } = {};
  let log: unknown[] = [];
  try {
    header = JSON.parse(lines[0] ?? '') as typeof header;
    log = lines.slice(1).map((line) => JSON.parse(line) as unknown);
  } catch {
    fail('is corrupt (a line is not JSON)');
  }
  if (header.format === WORLD_FORMAT)
    fail('is a world document (health-sandbox export, GET /_sandbox/world), not a state file: use --world-file to start from it');
  if (header.format !== STATE_FORMAT) fail(`is not a health-sandbox state file (no "format": "${STATE_FORMAT}" header)`);
  if (typeof header.version !== 'number' || !WORLD_VERSIONS.includes(header.version))
    fail(`was written in format version ${String(header.version)}; ${VERSIONS_READ}`);
  if (log.length !== end.end) fail(`is truncated (${log.length} inputs where its end line says ${String(end.end)})`);
  try {
    const stores = end.stores === undefined ? {} : { stores: end.stores };
    return parseWorldDocument(
      {
        format: WORLD_FORMAT,
        version: header.version,
        build: header.build,
        ...(header.state === undefined ? {} : { state: header.state }),
        log,
        ...stores,
      },
      Number.POSITIVE_INFINITY,
    );
  } catch (error) {
    if (error instanceof WorldDocumentError) fail(`is not a valid world (${error.message})`);
    throw error;
  }
}

/** Whether the bytes start as a world document does (`{"format":"health-sandbox-world"`). */
function isWorldDocument(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 256).toString('utf8').replace(/\s+/g, '');
  return head.startsWith(`{"format":"${WORLD_FORMAT}"`);
}

/** The file system calls the sink makes (node:fs; a test injects one that fails). */
export type StateFs = Pick<
  typeof nodeFs,
  'openSync' | 'writeSync' | 'fsyncSync' | 'closeSync' | 'renameSync' | 'ftruncateSync' | 'unlinkSync'
>;

const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));

/**
 * A state file the sandbox writes through; `close()` at shutdown. A write that cannot be made
 * durable (ENOSPC, EIO, EROFS ...) throws a LogSinkError (503) naming the cause after putting the
 * file back as it was (the old end line written again, what followed it cut off); one that would
 * take the file past `maxBytes` throws a LogSinkError (413) and writes nothing. Once the whole
 * file could not be written (a new world), every append is refused (503) until one is.
 */
export function stateFileSink(path: string, fs: StateFs = nodeFs, maxBytes: number = STATE_FILE_BYTES): StateSink & { close(): void } {
  const { openSync, writeSync, fsyncSync, closeSync, renameSync, ftruncateSync } = fs;
  let failed: string | null = null;
  let stores: Record<string, unknown> | undefined;
  let endLength = 0; // bytes from the end line's start to the end of the file (its padding included)
  let previous: { size: number; hash: number; count: number } | null = null; // before the last append (what `retract` puts back)
  const encoder = new TextEncoder();
  let fd: number | null = null;
  let size = 0; // bytes before the end line
  let hash = 0;
  let count = 0;
  /**
   * An end line of at least `cover` bytes (spaces before its newline): written over the old end
   * line (and a taken-back entry) in one write, it leaves nothing of them after it, so the file
   * never needs cutting and a kill leaves the old or the new state whole.
   */
  const padded = (line: string, cover: number): Uint8Array => {
    const bytes = encoder.encode(line);
    return bytes.length >= cover ? bytes : encoder.encode(`${line.slice(0, -1)}${' '.repeat(cover - bytes.length)}\n`);
  };
  /** Puts the file back as it was: the last good end line again, nothing after it. */
  const restoreEnd = (): void => {
    if (fd === null) return;
    const old = encoder.encode(endLine(count, hash, stores));
    try {
      writeSync(fd, old, 0, old.length, size);
      ftruncateSync(fd, size + old.length);
      fsyncSync(fd);
      endLength = old.length;
    } catch {
      // The device refuses even that: the next start names what it finds.
    }
  };
  const syncDir = (): void => {
    try {
      const dir = openSync(dirname(path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
    } catch {
      // Some platforms cannot open a directory: the rename is still atomic.
    }
  };
  return {
    write(doc, sameWorld = false) {
      const body = encoder.encode(
        [
          JSON.stringify({ format: STATE_FORMAT, version: doc.version, build: doc.build, ...(doc.state ? { state: doc.state } : {}) }),
          ...doc.log.map((e) => JSON.stringify(e)),
        ]
          .map((line) => `${line}\n`)
          .join(''),
      );
      const tmp = `${path}.tmp`;
      try {
        const out = openSync(tmp, 'w');
        try {
          writeSync(out, body);
          const end = endLine(doc.log.length, fnv(body), doc.stores);
          writeSync(out, end);
          endLength = encoder.encode(end).length;
          fsyncSync(out);
        } finally {
          closeSync(out);
        }
        renameSync(tmp, path);
      } catch (error) {
        try {
          fs.unlinkSync(tmp);
        } catch {
          // nothing was created
        }
        const why = `state file ${path}: the new world could not be written (${codeOf(error)})`;
        // A compaction (the same world) that failed leaves the file and its handle as they were: appending goes on.
        if (!sameWorld) failed = why;
        throw new LogSinkError(503, why);
      }
      hash = fnv(body);
      size = body.length;
      count = doc.log.length;
      stores = doc.stores;
      failed = null;
      syncDir();
      try {
        if (fd !== null) closeSync(fd);
      } catch {
        // The old handle is gone either way.
      }
      fd = null;
      try {
        fd = openSync(path, 'r+');
      } catch (error) {
        failed = `state file ${path}: it was written but cannot be opened again (${codeOf(error)})`;
        throw new LogSinkError(503, failed);
      }
    },
    append(entry: LogEntry) {
      if (failed !== null) throw new LogSinkError(503, failed);
      if (fd === null) return undefined;
      const line = encoder.encode(`${JSON.stringify(entry)}\n`);
      const nextHash = fnv(line, hash);
      const end = padded(endLine(count + 1, nextHash, stores), endLength - line.length);
      if (size + line.length + end.length > maxBytes)
        throw new LogSinkError(
          413,
          `state file ${path}: this input would take it past ${maxBytes} bytes, the most it holds (a reset, restore or import starts it again)`,
        );
      const both = new Uint8Array(line.length + end.length);
      both.set(line);
      both.set(end, line.length);
      try {
        // One write over the old end line: a kill leaves the file before or after it, never between.
        writeSync(fd, both, 0, both.length, size);
        fsyncSync(fd);
      } catch (error) {
        // Put the file back as it was: the old end line again, nothing after it.
        restoreEnd();
        throw new LogSinkError(503, `state file ${path}: this input could not be made durable (${codeOf(error)}), so it was not applied`);
      }
      previous = { size, hash, count };
      hash = nextHash;
      count++;
      size += line.length;
      endLength = end.length;
      return line.length;
    },
    retract() {
      if (failed !== null || fd === null || previous === null || previous.count !== count - 1) return false;
      const back = previous;
      const old = padded(endLine(back.count, back.hash, stores), size + endLength - back.size);
      try {
        // The old end line over the entry, padded to the end of the file: one write, nothing cut.
        writeSync(fd, old, 0, old.length, back.size);
        fsyncSync(fd);
      } catch {
        restoreEnd();
        return false;
      }
      ({ size, hash, count } = back);
      endLength = old.length;
      previous = null;
      return true;
    },
    checkpoint(next) {
      if (failed !== null || fd === null) return;
      const end = padded(endLine(count, hash, next), endLength);
      try {
        writeSync(fd, end, 0, end.length, size);
        fsyncSync(fd);
        endLength = end.length;
      } catch (error) {
        restoreEnd();
        throw new LogSinkError(503, `state file ${path}: the fault rules' state could not be made durable (${codeOf(error)})`);
      }
      stores = next;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

/** The largest world file read: twice what a live world keeps of its log in memory (its JSON around it). */
const WORLD_FILE_CHARS = 2 * DOCUMENT_LIMITS.bytes;

/** Reads a world file (`--world-file`, `GET /_sandbox/world` saved): a StateFileError names what is wrong. */
export function readWorldFile(path: string): WorldDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new StateFileError(`world file ${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if (text.length > WORLD_FILE_CHARS)
    throw new StateFileError(`world file ${path}: larger than ${WORLD_FILE_CHARS} characters, the most a world document holds`);
  try {
    return parseWorldDocument(JSON.parse(text));
  } catch (error) {
    const why = error instanceof WorldDocumentError ? error.message : 'is not JSON';
    throw new StateFileError(`world file ${path}: ${why}`);
  }
}
