/**
 * The Parquet answers of the aggregate operations (`application/vnd.apache.parquet` for a result
 * table; `application/vnd.vital.tar+gzip+parquet` for a query batch: a gzip'd tar holding one
 * `query_<i>.parquet` per query). Hand-written and browser-safe (no Node built-ins): one row
 * group, one PLAIN-encoded, uncompressed v1 data page per column, every column OPTIONAL.
 * Column types from the query's result schema: int64 INT64, float64 DOUBLE, boolean BOOLEAN,
 * everything else (strings, dates, datetimes, lists) a UTF8 BYTE_ARRAY, lists as JSON text. The gzip stream
 * uses stored (uncompressed) deflate blocks, so the bytes are the same on every runtime.
 */
import { binary, type Reply } from '../../engine/http-types.js';
import type { Table } from './execute.js';

const enc = new TextEncoder();

class Bytes {
  private parts: number[] = [];
  get length(): number {
    return this.parts.length;
  }
  byte(b: number): this {
    this.parts.push(b & 0xff);
    return this;
  }
  bytes(bs: ArrayLike<number>): this {
    for (let i = 0; i < bs.length; i++) this.parts.push((bs[i] as number) & 0xff);
    return this;
  }
  u32(v: number): this {
    return this.byte(v)
      .byte(v >>> 8)
      .byte(v >>> 16)
      .byte(v >>> 24);
  }
  varint(v: number): this {
    let x = v;
    while (x >= 0x80) {
      this.byte((x % 0x80) | 0x80);
      x = Math.floor(x / 0x80);
    }
    return this.byte(x);
  }
  out(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

// ---- Thrift compact protocol (the subset Parquet metadata needs) ----
const T = { I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 } as const;
type Field = [id: number, type: number, write: (b: Bytes) => void];
const zigzag = (v: number) => (v >= 0 ? v * 2 : -v * 2 - 1);
const i32 = (id: number, v: number): Field => [id, T.I32, (b) => b.varint(zigzag(v))];
const i64 = (id: number, v: number): Field => [id, T.I64, (b) => b.varint(zigzag(v))];
const str = (id: number, v: string): Field => [id, T.BINARY, (b) => writeString(b, v)];
const struct = (id: number, fields: Field[]): Field => [id, T.STRUCT, (b) => writeStruct(b, fields)];
const list = (id: number, elemType: number, items: Array<(b: Bytes) => void>): Field => [
  id,
  T.LIST,
  (b) => {
    if (items.length < 15) b.byte((items.length << 4) | elemType);
    else b.byte(0xf0 | elemType).varint(items.length);
    for (const item of items) item(b);
  },
];
function writeString(b: Bytes, v: string): void {
  const data = enc.encode(v);
  b.varint(data.length).bytes(data);
}
function writeStruct(b: Bytes, fields: Field[]): void {
  let last = 0;
  for (const [id, type, write] of fields) {
    const delta = id - last;
    if (delta > 0 && delta <= 15) b.byte((delta << 4) | type);
    else b.byte(type).varint(zigzag(id));
    write(b);
    last = id;
  }
  b.byte(0);
}

// ---- Columns ----
const PT = { BOOLEAN: 0, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;

const DECLARED: Record<string, number> = { float64: PT.DOUBLE, int64: PT.INT64, boolean: PT.BOOLEAN };

/** The column's physical type: from its declared type when known, else from its values. */
function physicalType(values: unknown[], declared?: string): number {
  if (declared !== undefined) return DECLARED[declared] ?? PT.BYTE_ARRAY;
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return PT.BYTE_ARRAY;
  if (present.every((v) => typeof v === 'boolean')) return PT.BOOLEAN;
  if (present.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return PT.INT64;
  if (present.every((v) => typeof v === 'number')) return PT.DOUBLE;
  return PT.BYTE_ARRAY;
}

function plainValues(type: number, values: unknown[]): Uint8Array {
  const b = new Bytes();
  if (type === PT.BOOLEAN) {
    for (let i = 0; i < values.length; i += 8) {
      let byte = 0;
      for (let j = 0; j < 8 && i + j < values.length; j++) if (values[i + j] === true) byte |= 1 << j;
      b.byte(byte);
    }
  } else if (type === PT.INT64 || type === PT.DOUBLE) {
    const view = new DataView(new ArrayBuffer(8));
    for (const v of values) {
      const n = typeof v === 'number' ? v : Number(v);
      if (type === PT.INT64) view.setBigInt64(0, BigInt(Number.isFinite(n) ? Math.round(n) : 0), true);
      else view.setFloat64(0, n, true);
      b.bytes(new Uint8Array(view.buffer));
    }
  } else {
    for (const v of values) {
      const data = enc.encode(typeof v === 'string' ? v : JSON.stringify(v));
      b.u32(data.length).bytes(data);
    }
  }
  return b.out();
}

/** Definition levels (bit width 1) as one bit-packed run of the RLE/bit-packing hybrid, length-prefixed. */
function definitionLevels(values: unknown[]): Uint8Array {
  const run = new Bytes();
  const groups = Math.ceil(values.length / 8);
  run.varint((groups << 1) | 1);
  for (let g = 0; g < groups; g++) {
    let byte = 0;
    for (let j = 0; j < 8; j++) {
      const v = values[g * 8 + j];
      if (g * 8 + j < values.length && v !== null && v !== undefined) byte |= 1 << j;
    }
    run.byte(byte);
  }
  const body = run.out();
  return new Bytes().u32(body.length).bytes(body).out();
}

/** A Parquet file of a column-oriented table; `types` are the columns' declared types (plan.ts). */
function encodeParquet(table: Table, types: Record<string, string> = {}): Uint8Array {
  const names = Object.keys(table);
  const rows = names.length ? (table[names[0] as string] as unknown[]).length : 0;
  const file = new Bytes().bytes(enc.encode('PAR1'));
  const chunks: Field[][] = [];
  const schema: Array<(b: Bytes) => void> = [(b) => writeStruct(b, [str(4, 'schema'), i32(5, names.length)])];
  let total = 0;
  for (const name of names) {
    const values = table[name] as unknown[];
    const type = physicalType(values, types[name]);
    const present = values.filter((v) => v !== null && v !== undefined);
    const levels = definitionLevels(values);
    const data = plainValues(type, present);
    const size = levels.length + data.length;
    const header = new Bytes();
    writeStruct(header, [i32(1, 0), i32(2, size), i32(3, size), struct(5, [i32(1, values.length), i32(2, 0), i32(3, 3), i32(4, 3)])]);
    const offset = file.length;
    file.bytes(header.out()).bytes(levels).bytes(data);
    const chunkSize = file.length - offset;
    total += chunkSize;
    const meta: Field[] = [
      i32(1, type),
      list(2, T.I32, [(b) => b.varint(zigzag(0)), (b) => b.varint(zigzag(3))]),
      list(3, T.BINARY, [(b) => writeString(b, name)]),
      i32(4, 0),
      i64(5, values.length),
      i64(6, chunkSize),
      i64(7, chunkSize),
      i64(9, offset),
    ];
    chunks.push([i64(2, offset), struct(3, meta)]);
    const element: Field[] = [i32(1, type), i32(3, 1), str(4, name)];
    if (type === PT.BYTE_ARRAY) element.push(i32(6, 0));
    schema.push((b) => writeStruct(b, element));
  }
  const footer = new Bytes();
  writeStruct(footer, [
    i32(1, 1),
    list(2, T.STRUCT, schema),
    i64(3, rows),
    list(4, T.STRUCT, [
      (b) =>
        writeStruct(b, [
          list(
            1,
            T.STRUCT,
            chunks.map((c) => (b2: Bytes) => writeStruct(b2, c)),
          ),
          i64(2, total),
          i64(3, rows),
        ]),
    ]),
    str(6, 'health-sandbox'),
  ]);
  const meta = footer.out();
  return file.bytes(meta).u32(meta.length).bytes(enc.encode('PAR1')).out();
}

// ---- tar + gzip ----
function tarEntry(b: Bytes, name: string, data: Uint8Array, mtimeSec: number): void {
  const header = new Uint8Array(512);
  const put = (offset: number, text: string) => header.set(enc.encode(text), offset);
  const octal = (v: number, width: number) => `${v.toString(8).padStart(width - 1, '0')}\0`;
  put(0, name);
  put(100, octal(0o644, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(data.length, 12));
  put(136, octal(mtimeSec, 12));
  put(148, '        ');
  put(156, '0');
  put(257, 'ustar\0');
  put(263, '00');
  let sum = 0;
  for (const x of header) sum += x;
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  b.bytes(header).bytes(data);
  const pad = (512 - (data.length % 512)) % 512;
  b.bytes(new Uint8Array(pad));
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of data) c = (CRC_TABLE[(c ^ x) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A gzip member holding `data` in stored deflate blocks. */
function gzipStored(data: Uint8Array): Uint8Array {
  const b = new Bytes().bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
  let pos = 0;
  do {
    const len = Math.min(0xffff, data.length - pos);
    const final = pos + len >= data.length ? 1 : 0;
    b.byte(final)
      .byte(len)
      .byte(len >>> 8)
      .byte(~len)
      .byte(~len >>> 8);
    b.bytes(data.subarray(pos, pos + len));
    pos += len;
  } while (pos < data.length);
  return b
    .u32(crc32(data))
    .u32(data.length >>> 0)
    .out();
}

/** `application/vnd.vital.tar+gzip+parquet`: `query_<i>.parquet` per result table. */
export function parquetTarball(tables: Array<{ table: Table; types: Record<string, string> }>, now: number): Reply {
  const tar = new Bytes();
  tables.forEach((t, i) => tarEntry(tar, `query_${i}.parquet`, encodeParquet(t.table, t.types), Math.floor(now / 1000)));
  tar.bytes(new Uint8Array(1024));
  return binary(gzipStored(tar.out()), 'application/vnd.vital.tar+gzip+parquet');
}

/** `application/vnd.apache.parquet`: the table as one Parquet file. */
export function parquetFile(table: Table, types: Record<string, string>): Reply {
  return binary(encodeParquet(table, types), 'application/vnd.apache.parquet');
}
