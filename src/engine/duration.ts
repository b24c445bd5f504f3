/** ISO 8601 durations (`P1DT2H30M`, `PT45S`, `P2W`) in seconds. Years and months are refused: their length varies. */
const PATTERN = /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

export function parseDuration(text: string): number | null {
  const m = PATTERN.exec(text.trim());
  if (!m || text.trim().toUpperCase() === 'P' || /T$/i.test(text.trim())) return null;
  const [, w, d, h, min, s] = m;
  const n = (v: string | undefined) => (v === undefined ? 0 : Number(v));
  return n(w) * 604800 + n(d) * 86400 + n(h) * 3600 + n(min) * 60 + n(s);
}
