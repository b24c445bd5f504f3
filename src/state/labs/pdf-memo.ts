/**
 * The lab PDFs already drawn (issue 45): a document's bytes kept by what it shows, so that the
 * next read of the same document (a portal's refresh, a second download) costs the gathering of
 * its content, not its drawing. The key is the whole content a writer draws from (every text,
 * the document date), so any change of an order, a result or a catalogue text makes another key:
 * nothing to invalidate, and a kept document is byte for byte what drawing it again gives.
 *
 * The memo is an `aside` slot: never part of a saved world, gone with its world (reset, restore,
 * load). Bounded by entries and bytes, least recently read dropped first. The kept bytes are
 * handed out as they are (as engine/render-cache.ts hands out a kept JSON answer): an answer's
 * body is never written to.
 */
import { worldSlot, type World } from '../../engine/world.js';

/** Documents kept per world. */
const PDF_ENTRIES = 128;
/** Bytes of the kept documents and their keys together (a lab PDF is a few to a few tens of kilobytes). */
const PDF_BYTES = 4 * 1024 * 1024;

interface PdfMemo {
  /** By content key, least recently read first (re-inserted on use). */
  docs: Map<string, Uint8Array>;
  bytes: number;
}

/** What an entry holds: its bytes and its key (a UTF-16 string, two bytes a character). */
const weight = (key: string, doc: Uint8Array) => doc.byteLength + 2 * key.length;

const memoOf = worldSlot('labs.pdf-memo', (): PdfMemo => ({ docs: new Map(), bytes: 0 }), 'aside');

/**
 * The PDF drawn from the content `key` names: the kept bytes when the same content was drawn
 * before in this world, else `draw()`'s, kept for the next read.
 */
export async function keptPdf(world: World, key: string, draw: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const memo = memoOf(world);
  const kept = memo.docs.get(key);
  if (kept !== undefined) {
    memo.docs.delete(key);
    memo.docs.set(key, kept);
    return kept;
  }
  const bytes = await draw();
  if (weight(key, bytes) > PDF_BYTES || memo.docs.has(key)) return bytes;
  memo.docs.set(key, bytes);
  memo.bytes += weight(key, bytes);
  for (const [k, doc] of memo.docs) {
    if (memo.docs.size <= PDF_ENTRIES && memo.bytes <= PDF_BYTES) break;
    memo.docs.delete(k);
    memo.bytes -= weight(k, doc);
  }
  return bytes;
}

/** How many documents a world keeps. */
export function keptPdfCount(world: World): number {
  return memoOf.peek(world)?.docs.size ?? 0;
}

/** Drops every document a world keeps (the next read of each draws it again). */
export function forgetKeptPdfs(world: World): void {
  memoOf.put(world, { docs: new Map(), bytes: 0 });
}
