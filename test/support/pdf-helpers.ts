/** Reading what a PDF answer draws (the strings shown with Tj on its pages), for the document tests. */
import { inflateSync } from 'node:zlib';

export function pdfStrings(bytes: Buffer): string[] {
  const raw = bytes.toString('latin1');
  const out: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let m = streams.exec(raw); m; m = streams.exec(raw)) {
    const data = Buffer.from(m[1] ?? '', 'latin1');
    let content: string;
    try {
      content = inflateSync(data).toString('latin1');
    } catch {
      content = data.toString('latin1');
    }
    for (const t of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:[^()\\]|\\.)*)\)\s*Tj/g)) {
      out.push(t[1] !== undefined ? Buffer.from(t[1], 'hex').toString('latin1') : (t[2] ?? ''));
    }
  }
  return out;
}
