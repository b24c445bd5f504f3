/**
 * The PDF writer of the order documents (requisition, specimen labels, collection instructions,
 * ABN, a transaction's result report): a document is a title and a list of blocks, drawn with
 * the sandbox's own small PDF writer (pdf-writer.ts). Deterministic: the document date is given by the
 * caller (a time of the order's state, never "now"), metadata is fixed, no random ids.
 */
import type { World } from '../../engine/world.js';
import { keptPdf } from './pdf-memo.js';
import { MARGIN, PAGE, PdfWriter } from './pdf-writer.js';

export type DocBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'pairs'; pairs: Array<[string, string]> }
  | { kind: 'text'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; heads: string[]; rows: string[][] }
  /** Specimen labels: each label a few lines, drawn in a grid of 3 x 10 per page. */
  | { kind: 'labels'; labels: string[][] };

export interface DocSpec {
  title: string;
  subject: string;
  author: string;
  /** The document's date (creation and modification metadata). */
  date: Date;
  blocks: DocBlock[];
}

const WIDTH = PAGE[0] - 2 * MARGIN;

/** Breaks a text into lines of at most `max` characters at spaces. */
function wrap(text: string, max: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (!word) continue;
    if (line && line.length + 1 + word.length > max) {
      out.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word.slice(0, max);
  }
  if (line) out.push(line);
  return out;
}

/** The document's PDF, drawn once per content in a world (pdf-memo.ts): the same bytes as `renderDocument`. */
export function documentPdf(world: World, spec: DocSpec): Promise<Uint8Array> {
  return keptPdf(world, `document ${JSON.stringify(spec)}`, () => renderDocument(spec));
}

export async function renderDocument(spec: DocSpec): Promise<Uint8Array> {
  const pdf = await PdfWriter.open({
    title: spec.title,
    author: spec.author,
    subject: spec.subject,
    date: spec.date,
    continued: `${spec.title} - continued`,
  });
  const { font, bold } = pdf;
  const rgb = pdf.rgb.bind(pdf);
  const text = pdf.text.bind(pdf);
  const line = pdf.line.bind(pdf);

  pdf.heading(spec.title, 'SANDBOX DOCUMENT - synthetic, not for clinical use');
  for (const block of spec.blocks) {
    switch (block.kind) {
      case 'heading':
        line(6);
        text(block.text, MARGIN, 11, bold);
        line(16);
        break;
      case 'pairs':
        for (const [k, v] of block.pairs) {
          text(`${k}:`, MARGIN, 9, bold);
          text(v.slice(0, 80), MARGIN + 130, 9);
          line(13);
        }
        break;
      case 'text':
        for (const l of wrap(block.text, 100)) {
          text(l, MARGIN);
          line(12);
        }
        break;
      case 'list':
        for (const item of block.items) {
          wrap(item, 95).forEach((l, i) => {
            text(i === 0 ? `- ${l}` : `  ${l}`, MARGIN);
            line(12);
          });
        }
        break;
      case 'table': {
        const col = WIDTH / block.heads.length;
        block.heads.forEach((h, i) => text(h, MARGIN + i * col, 9, bold));
        line(4);
        pdf.rule();
        line(12);
        for (const row of block.rows) {
          row.forEach((cell, i) => text(cell.slice(0, Math.floor(col / 5)), MARGIN + i * col));
          line(13);
        }
        break;
      }
      case 'labels': {
        const cols = 3;
        const w = WIDTH / cols;
        const h = 60;
        block.labels.forEach((label, i) => {
          if (i % cols === 0 && i > 0) line(h);
          if (i % cols === 0 && pdf.y - h < MARGIN) pdf.newPage();
          const x = MARGIN + (i % cols) * w;
          pdf.rect(x, pdf.y - h + 10, w - 8, h - 4, 0.5, rgb(0.4, 0.4, 0.4));
          label.forEach((l, j) => pdf.textAt(l.slice(0, 34), x + 6, pdf.y - j * 11, j === 0 ? 9 : 8, j === 0 ? bold : font));
        });
        line(h);
        break;
      }
    }
  }
  return pdf.save();
}
