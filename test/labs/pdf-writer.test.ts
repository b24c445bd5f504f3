/**
 * The sandbox's own PDF writer (src/state/labs/pdf-writer.ts), checked by reading its output:
 * the cross-reference offsets land on their objects, `startxref` on the table, each content
 * stream's `/Length` is its byte length, metadata strings survive escaping (parsed back by
 * pdf-lib, a test-only dependency), pages break, and the same calls give the same bytes.
 */
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { PdfWriter, pdfLiteral, pdfNumber } from '../../src/state/labs/pdf-writer.js';
import { pdfStrings } from '../support/pdf-helpers.js';

const META = {
  title: 'Report (draft) \\ 50% – Müller',
  author: 'Lab (CLIA 12D)',
  subject: 'Results for order 1',
  date: new Date('2026-01-05T09:30:00Z'),
  continued: 'Report - continued',
};

async function sample(lines: number): Promise<Buffer> {
  const w = await PdfWriter.open(META);
  w.heading('Report (draft)', 'SANDBOX DOCUMENT');
  for (let i = 0; i < lines; i++) {
    w.text(`Line ${i} (a) \\ b – Ünit`, 48, 9, i % 2 ? w.bold : w.font, w.rgb(0.75, 0, 0));
    w.line(13);
  }
  w.rule();
  w.rect(48, 100, 120, 50, 0.5, w.rgb(0.4, 0.4, 0.4));
  return Buffer.from(await w.save());
}

describe('the PDF writer', () => {
  it('writes a file whose cross-reference table and stream lengths are exact', async () => {
    const bytes = await sample(80);
    const raw = bytes.toString('latin1');
    expect(raw.startsWith('%PDF-1.7\n')).toBe(true);
    expect(raw.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(raw)?.[1]);
    expect(raw.slice(startxref, startxref + 5)).toBe('xref\n');
    const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(raw.slice(startxref)) ?? [];
    expect(Number(first)).toBe(0);
    const entries = raw
      .slice(startxref)
      .split('\n')
      .slice(2, 2 + Number(count));
    expect(entries[0]).toBe('0000000000 65535 f ');
    entries.slice(1).forEach((entry, i) => {
      expect(entry).toMatch(/^\d{10} 00000 n $/);
      const at = Number(entry.slice(0, 10));
      expect(raw.slice(at, at + `${i + 1} 0 obj\n`.length)).toBe(`${i + 1} 0 obj\n`);
    });
    expect(raw).toContain(`/Size ${count} `);
    for (const m of raw.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
      const start = (m.index ?? 0) + m[0].length;
      expect(raw.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
    }
  });

  it('is read back by another parser: pages, metadata through escaping, drawn text', async () => {
    const bytes = await sample(80);
    const doc = await PDFDocument.load(bytes, { updateMetadata: false });
    expect(doc.getPageCount()).toBe(2);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    // WinAnsi only: the en dash is not in Latin-1 and prints as `?`.
    expect(doc.getTitle()).toBe('Report (draft) \\ 50% ? Müller');
    expect(doc.getAuthor()).toBe('Lab (CLIA 12D)');
    expect(doc.getProducer()).toBe('health-sandbox');
    expect(doc.getCreationDate()?.toISOString()).toBe('2026-01-05T09:30:00.000Z');
    const drawn = pdfStrings(bytes);
    expect(drawn[0]).toBe('Report (draft)');
    expect(drawn).toContain('Line 3 (a) \\ b ? Ünit');
    expect(drawn).toContain('Report - continued');
  });

  it('gives the same bytes for the same calls, and escapes literal strings', async () => {
    expect((await sample(5)).equals(await sample(5))).toBe(true);
    expect(pdfLiteral('a(b)c\\d\né')).toBe('(a\\(b\\)c\\\\d?\\351)');
    expect([pdfNumber(-0.0001), pdfNumber(1 / 3), pdfNumber(612)]).toEqual(['0', '0.333', '612']);
  });
});
