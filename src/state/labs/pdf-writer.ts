/**
 * The page writer both lab PDFs draw with (the result report, the order documents): a small
 * PDF 1.7 writer of its own (no dependency, see DECISIONS.md 2026-11-26), enough for text in the
 * two standard Helvetica faces, rules and boxes on US Letter pages. Fixed metadata dated by the
 * caller (a time of the order's state, never "now"), a cursor that moves down and starts a new
 * page (with a "continued" line) near the bottom. Deterministic: same calls, same bytes.
 *
 * The file: a header with a binary comment, one object per line group (catalog, page tree, the
 * two fonts, the document information, then each page and its uncompressed content stream), a
 * cross-reference table whose offsets are the objects' byte offsets, and the trailer. Shown text
 * is a hex string (`<48656C6C6F> Tj`: nothing to escape); the metadata strings are literal
 * strings with `\`, `(`, `)` and every byte outside printable ASCII escaped.
 */

/** Standard PDF fonts speak WinAnsi only: anything else prints as `?`. */
function safe(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

export const PAGE: [number, number] = [612, 792];
export const MARGIN = 48;

/** One of the two faces every document uses (standard fonts: nothing embedded). */
export interface PdfFont {
  readonly resource: 'F1' | 'F2';
}
/** A colour, each channel 0 to 1. */
export type RGB = readonly [number, number, number];

const REGULAR: PdfFont = { resource: 'F1' };
const BOLD: PdfFont = { resource: 'F2' };
const BLACK: RGB = [0, 0, 0];

interface PdfMeta {
  title: string;
  author: string;
  subject: string;
  date: Date;
  /** The line heading every page after the first. */
  continued: string;
}

/** A number as PDF writes it: at most 3 decimals, no exponent, no `-0`. */
export function pdfNumber(n: number): string {
  const r = Math.round(n * 1000) / 1000;
  return Object.is(r, -0) || r === 0 ? '0' : String(r);
}

/** Two upper-case hex digits of each byte. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, b) => b.toString(16).toUpperCase().padStart(2, '0'));

/** Shown text as the hex digits of its WinAnsi bytes: what `safe` leaves of it, a character outside WinAnsi as `?` (3F). */
function hexOf(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    out += (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) ? HEX[code] : '3F';
  }
  return out;
}

/** A literal string `( ... )`: backslash, parentheses and bytes outside printable ASCII escaped. */
export function pdfLiteral(text: string): string {
  let out = '(';
  for (const c of safe(text)) {
    const code = c.charCodeAt(0);
    if (c === '\\' || c === '(' || c === ')') out += `\\${c}`;
    else if (code < 0x20 || code > 0x7e) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += c;
  }
  return `${out})`;
}

/** `D:YYYYMMDDHHmmSSZ` (UTC). */
function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

const colour = (c: RGB) => (c === BLACK ? '0 0 0' : c.map(pdfNumber).join(' '));

/** Latin-1 text to bytes (every character here is below 256). */
function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

export class PdfWriter {
  /** The content stream of each page, operators one per line. */
  private readonly pages: string[][] = [];
  y = PAGE[1] - MARGIN;
  readonly font = REGULAR;
  readonly bold = BOLD;

  private constructor(private readonly meta: PdfMeta) {
    this.pages.push([]);
  }

  static async open(meta: PdfMeta): Promise<PdfWriter> {
    return new PdfWriter(meta);
  }

  rgb(r: number, g: number, b: number): RGB {
    return [r, g, b];
  }

  private get ops(): string[] {
    return this.pages[this.pages.length - 1] as string[];
  }

  /** Draws `s` at `x`, `y`. */
  textAt(s: string, x: number, y: number, size = 9, f: PdfFont = this.font, color: RGB = BLACK): void {
    this.ops.push(`BT /${f.resource} ${pdfNumber(size)} Tf ${colour(color)} rg ${pdfNumber(x)} ${pdfNumber(y)} Td <${hexOf(s)}> Tj ET`);
  }

  /** Draws `s` at `x` on the cursor's line. */
  text(s: string, x: number, size = 9, f: PdfFont = this.font, color: RGB = BLACK): void {
    this.textAt(s, x, this.y, size, f, color);
  }

  /** A box outline. */
  rect(x: number, y: number, width: number, height: number, borderWidth: number, color: RGB = BLACK): void {
    this.ops.push(
      `q ${pdfNumber(borderWidth)} w ${colour(color)} RG ${pdfNumber(x)} ${pdfNumber(y)} ${pdfNumber(width)} ${pdfNumber(height)} re S Q`,
    );
  }

  newPage(): void {
    this.pages.push([]);
    this.y = PAGE[1] - MARGIN;
    this.text(this.meta.continued, MARGIN, 9, this.bold);
    this.y -= 18;
  }

  /** Moves the cursor down by `gap`, to a new page near the bottom. */
  line(gap: number): void {
    this.y -= gap;
    if (this.y < MARGIN + 30) this.newPage();
  }

  /** A rule across the page at the cursor. */
  rule(): void {
    const y = pdfNumber(this.y);
    this.ops.push(`q 0.5 w 0 0 0 RG ${MARGIN} ${y} m ${pdfNumber(PAGE[0] - MARGIN)} ${y} l S Q`);
  }

  /** The title and the sandbox notice every document starts with. */
  heading(title: string, notice: string): void {
    this.text(title, MARGIN, 16, this.bold);
    this.line(22);
    this.text(notice, MARGIN, 8, this.font, this.rgb(0.6, 0, 0));
    this.line(20);
  }

  /** The whole file. */
  async save(): Promise<Uint8Array> {
    return bytesOf(this.serialize());
  }

  private serialize(): string {
    const date = pdfLiteral(pdfDate(this.meta.date));
    const font = (name: string) => `<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`;
    const first = 6;
    const kids = this.pages.map((_, i) => `${first + 2 * i} 0 R`).join(' ');
    const objects: string[] = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${this.pages.length} >>`,
      font('Helvetica'),
      font('Helvetica-Bold'),
      `<< /Title ${pdfLiteral(this.meta.title)} /Author ${pdfLiteral(this.meta.author)} /Subject ${pdfLiteral(this.meta.subject)} /Producer (health-sandbox) /Creator (health-sandbox) /CreationDate ${date} /ModDate ${date} >>`,
    ];
    this.pages.forEach((ops, i) => {
      const content = ops.join('\n');
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE[0]} ${PAGE[1]}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${first + 2 * i + 1} 0 R >>`,
        `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      );
    });
    let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(out.length);
      out += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    const xref = out.length;
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
    for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return out;
  }
}
