/**
 * The page writer both lab PDFs draw with (the result report, the order documents): pdf-lib
 * loaded on first use, fixed metadata dated by the caller (a time of the order's state, never
 * "now"), Helvetica on US Letter pages, a cursor that moves down and starts a new page (with a
 * "continued" line) near the bottom. Deterministic: same calls, same bytes.
 */
import type { PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';

/** pdf-lib, loaded on first use so that a browser bundle of the core does not carry it up front. */
let pdfLib: Promise<typeof import('pdf-lib')> | null = null;
function loadPdfLib(): Promise<typeof import('pdf-lib')> {
  pdfLib ??= import('pdf-lib');
  return pdfLib;
}

/** Standard PDF fonts speak WinAnsi only: anything else prints as `?`. */
export function safe(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export const PAGE: [number, number] = [612, 792];
export const MARGIN = 48;

interface PdfMeta {
  title: string;
  author: string;
  subject: string;
  date: Date;
  /** The line heading every page after the first. */
  continued: string;
}

export class PdfWriter {
  page: PDFPage;
  y = PAGE[1] - MARGIN;

  private constructor(
    readonly doc: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly rgb: (r: number, g: number, b: number) => RGB,
    private readonly continued: string,
  ) {
    this.page = doc.addPage(PAGE);
  }

  static async open(meta: PdfMeta): Promise<PdfWriter> {
    const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setTitle(safe(meta.title));
    doc.setAuthor(safe(meta.author));
    doc.setSubject(safe(meta.subject));
    doc.setProducer('health-sandbox');
    doc.setCreator('health-sandbox');
    doc.setCreationDate(meta.date);
    doc.setModificationDate(meta.date);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    return new PdfWriter(doc, font, bold, rgb, meta.continued);
  }

  /** Draws `s` at `x` on the cursor's line. */
  text(s: string, x: number, size = 9, f: PDFFont = this.font, color: RGB = this.rgb(0, 0, 0)): void {
    this.page.drawText(safe(s), { x, y: this.y, size, font: f, color });
  }

  newPage(): void {
    this.page = this.doc.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
    this.text(this.continued, MARGIN, 9, this.bold);
    this.y -= 18;
  }

  /** Moves the cursor down by `gap`, to a new page near the bottom. */
  line(gap: number): void {
    this.y -= gap;
    if (this.y < MARGIN + 30) this.newPage();
  }

  /** A rule across the page at the cursor. */
  rule(): void {
    this.page.drawLine({ start: { x: MARGIN, y: this.y }, end: { x: PAGE[0] - MARGIN, y: this.y }, thickness: 0.5 });
  }

  /** The title and the sandbox notice every document starts with. */
  heading(title: string, notice: string): void {
    this.text(title, MARGIN, 16, this.bold);
    this.line(22);
    this.text(notice, MARGIN, 8, this.font, this.rgb(0.6, 0, 0));
    this.line(20);
  }

  save(): Promise<Uint8Array> {
    return this.doc.save({ useObjectStreams: false });
  }
}
