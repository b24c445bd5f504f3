/**
 * The lab report PDF of an order's results (`GET /v3/order/:id/result/pdf`): a real PDF listing
 * each result with its value, flag, unit and reference range, and the missing results. Made
 * with pdf-lib and deterministic: dates come from the sandbox clock, no random document ids.
 */
import type { PDFFont, PDFPage } from 'pdf-lib';
import type { ResultSet } from '../../fixtures/labs/lab-results.js';

export interface ReportHeader {
  title: string;
  patient: string;
  dob: string;
  age: string;
  sampleId: string;
  orderId: string;
  laboratory: string;
  clia: string;
  collected: string;
  received: string;
  reported: string;
  status: string;
  interpretation: string;
  /** Document date (sandbox time of the report). */
  date: Date;
}

/** Standard PDF fonts speak WinAnsi only: anything else prints as `?`. */
function safe(text: string): string {
  return text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

const PAGE: [number, number] = [612, 792];
const MARGIN = 48;
const COLUMNS = [MARGIN, 250, 360, 420, 500];

/** pdf-lib, loaded on first use so that a browser bundle of the core does not carry it up front. */
let pdfLib: Promise<typeof import('pdf-lib')> | null = null;
export function loadPdfLib(): Promise<typeof import('pdf-lib')> {
  pdfLib ??= import('pdf-lib');
  return pdfLib;
}

export async function renderResultPdf(header: ReportHeader, set: ResultSet): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await loadPdfLib();
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(safe(header.title));
  doc.setAuthor(safe(header.laboratory));
  doc.setSubject(`Lab results for order ${header.orderId}`);
  doc.setProducer('health-sandbox');
  doc.setCreator('health-sandbox');
  doc.setCreationDate(header.date);
  doc.setModificationDate(header.date);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);

  let page: PDFPage = doc.addPage(PAGE);
  let y = PAGE[1] - MARGIN;
  const text = (s: string, x: number, size = 9, f: PDFFont = font, color = rgb(0, 0, 0)) => page.drawText(safe(s), { x, y, size, font: f, color });
  const newPage = () => {
    page = doc.addPage(PAGE);
    y = PAGE[1] - MARGIN;
    text(`${header.title} - ${header.patient} - continued`, MARGIN, 9, bold);
    y -= 18;
  };
  const line = (gap: number) => {
    y -= gap;
    if (y < MARGIN + 30) newPage();
  };

  text(header.title, MARGIN, 16, bold);
  line(22);
  text('SANDBOX DOCUMENT - synthetic results, not for clinical use', MARGIN, 8, font, rgb(0.6, 0, 0));
  line(20);
  const pairs: Array<[string, string]> = [
    ['Patient', header.patient], ['Date of birth', `${header.dob} (age ${header.age})`],
    ['Specimen', header.sampleId], ['Order', header.orderId],
    ['Laboratory', `${header.laboratory} (CLIA ${header.clia})`], ['Report status', header.status],
    ['Collected', header.collected], ['Received', header.received],
    ['Reported', header.reported], ['Interpretation', header.interpretation],
  ];
  for (let i = 0; i < pairs.length; i += 2) {
    const left = pairs[i] as [string, string];
    const right = pairs[i + 1];
    text(`${left[0]}:`, MARGIN, 9, bold);
    text(left[1], MARGIN + 80, 9);
    if (right) {
      text(`${right[0]}:`, 320, 9, bold);
      text(right[1], 400, 9);
    }
    line(14);
  }
  line(8);
  const heads = ['Test', 'Result', 'Flag', 'Units', 'Reference range'];
  heads.forEach((h, i) => text(h, COLUMNS[i] as number, 9, bold));
  line(4);
  page.drawLine({ start: { x: MARGIN, y }, end: { x: PAGE[0] - MARGIN, y }, thickness: 0.5 });
  line(12);
  for (const r of set.results) {
    const flag = r.interpretation === 'normal' ? '' : r.interpretation === 'critical' ? 'CRITICAL' : 'ABNORMAL';
    const color = r.interpretation === 'critical' ? rgb(0.75, 0, 0) : r.interpretation === 'abnormal' ? rgb(0.7, 0.35, 0) : rgb(0, 0, 0);
    text(r.name.slice(0, 38), COLUMNS[0] as number);
    text(r.result.slice(0, 22), COLUMNS[1] as number, 9, r.interpretation === 'normal' ? font : bold, color);
    text(flag, COLUMNS[2] as number, 8, bold, color);
    text((r.unit ?? '').slice(0, 14), COLUMNS[3] as number);
    text((r.reference_range ?? '').slice(0, 20), COLUMNS[4] as number);
    line(13);
    if (r.notes) {
      text(`  Note: ${r.notes}`, COLUMNS[0] as number, 7, font, rgb(0.3, 0.3, 0.3));
      line(11);
    }
  }
  if (set.missing.length > 0) {
    line(8);
    text('Results not reported', MARGIN, 10, bold);
    line(14);
    for (const m of set.missing) {
      text(`${m.name}: ${m.inferred_failure_type.replace(/_/g, ' ')}`, MARGIN);
      line(13);
    }
  }
  return doc.save({ useObjectStreams: false });
}
