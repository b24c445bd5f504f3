/**
 * The lab report PDF of an order's results (`GET /v3/order/:id/result/pdf`): a real PDF listing
 * each result with its value, flag, unit and reference range, and the missing results. Made
 * with the sandbox's own PDF writer (pdf-writer.ts) and deterministic: dates come from the sandbox clock, no random document ids.
 */
import { MARGIN, PdfWriter } from './pdf-writer.js';
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

const COLUMNS = [MARGIN, 250, 360, 420, 500];

/**
 * Everything `renderResultPdf` draws, as one string (pdf-memo.ts's key): the header and, of each
 * result and missing result, the fields the report shows.
 */
export function resultPdfKey(header: ReportHeader, set: ResultSet): string {
  let key = `result ${JSON.stringify(header)}`;
  for (const r of set.results) key += `\n${JSON.stringify([r.name, r.result, r.interpretation, r.unit, r.reference_range, r.notes])}`;
  key += '\nmissing';
  for (const m of set.missing) key += `\n${JSON.stringify([m.name, m.inferred_failure_type])}`;
  return key;
}

export async function renderResultPdf(header: ReportHeader, set: ResultSet): Promise<Uint8Array> {
  const w = await PdfWriter.open({
    title: header.title,
    author: header.laboratory,
    subject: `Lab results for order ${header.orderId}`,
    date: header.date,
    continued: `${header.title} - ${header.patient} - continued`,
  });
  const { font, bold } = w;
  const rgb = w.rgb.bind(w);
  const text = w.text.bind(w);
  const line = w.line.bind(w);

  w.heading(header.title, 'SANDBOX DOCUMENT - synthetic results, not for clinical use');
  const pairs: Array<[string, string]> = [
    ['Patient', header.patient],
    ['Date of birth', `${header.dob} (age ${header.age})`],
    ['Specimen', header.sampleId],
    ['Order', header.orderId],
    ['Laboratory', `${header.laboratory} (CLIA ${header.clia})`],
    ['Report status', header.status],
    ['Collected', header.collected],
    ['Received', header.received],
    ['Reported', header.reported],
    ['Interpretation', header.interpretation],
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
  w.rule();
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
  return w.save();
}
