#!/usr/bin/env node
/**
 * Summarises a `HEALTH_SANDBOX_CPU_LOG` file (test/support/per-file.ts): the files' CPU in total
 * and per worker, when each worker started its first file and ended its last (the run's tail),
 * and the files by CPU and by wall time, with when each started (seconds from the first start),
 * and the vitest main process's own CPU (test/support/main-cpu.ts) when the log holds it.
 * `node test/support/cpu-log.mjs <log> [rows]`.
 */
import { readFileSync } from 'node:fs';

const [path, rowsArg] = process.argv.slice(2);
if (!path) {
  process.stderr.write('usage: node test/support/cpu-log.mjs <HEALTH_SANDBOX_CPU_LOG file> [rows]\n');
  process.exit(2);
}
const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
const main = lines.filter((line) => line.startsWith('#main\t')).map((line) => line.split('\t').map(Number));
const rows = lines
  .filter((line) => !line.startsWith('#'))
  .map((line) => {
    const [cpu, wall, file, start, end, pid] = line.split('\t');
    return { cpu: Number(cpu), wall: Number(wall), file, start: Number(start), end: Number(end), pid };
  });
const t0 = Math.min(...rows.map((r) => r.start));
const s = (ms) => (ms / 1000).toFixed(1).padStart(6);
const out = [`${rows.length} files, ${s(rows.reduce((a, r) => a + r.cpu, 0))} s of CPU in the files`];
for (const [, own, children] of main)
  out.push(`vitest main process: ${s(own)} s of CPU, its children reaped by then (the workers or not: varies) ${s(children)} s`);
for (const pid of [...new Set(rows.map((r) => r.pid))]) {
  const own = rows.filter((r) => r.pid === pid);
  const first = Math.min(...own.map((r) => r.start)) - t0;
  const last = Math.max(...own.map((r) => r.end)) - t0;
  out.push(`worker ${pid}: ${own.length} files, CPU ${s(own.reduce((a, r) => a + r.cpu, 0))} s, from ${s(first)} to ${s(last)} s`);
}
const top = Number(rowsArg ?? 15);
const line = (r) => `${s(r.cpu)} cpu ${s(r.end - r.start)} wall  at ${s(r.start - t0)}  ${r.file}`;
out.push(
  '',
  'by CPU:',
  ...[...rows]
    .sort((a, b) => b.cpu - a.cpu)
    .slice(0, top)
    .map(line),
);
out.push(
  '',
  'by wall time:',
  ...[...rows]
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, top)
    .map(line),
);
out.push(
  '',
  'the last to end:',
  ...[...rows]
    .sort((a, b) => b.end - a.end)
    .slice(0, 5)
    .map(line),
);
process.stdout.write(`${out.join('\n')}\n`);
