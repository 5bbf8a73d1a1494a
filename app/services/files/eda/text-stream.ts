import { isUtf8 } from "node:buffer";
import { Readable, Transform } from "node:stream";
import { EncodingMismatchError, UnreadableFileError } from "./errors";

export type TextEncoding = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252" | "iso-8859-1";

/** Read the first `bytes` of a stream and give back a stream that still yields everything. */
export async function peek(source: Readable, bytes: number): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    chunks.push(chunk);
    length += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { head, stream: Readable.from(rest(), { objectMode: false }) };
}

// Byte order marks we recognise but cannot read: the file ends Failed saying which one.
const UNSUPPORTED_BOMS: [number[], string][] = [
  [[0xff, 0xfe, 0x00, 0x00], "UTF-32 LE"],
  [[0x00, 0x00, 0xfe, 0xff], "UTF-32 BE"],
  [[0x2b, 0x2f, 0x76], "UTF-7"],
  [[0xf7, 0x64, 0x4c], "UTF-1"],
  [[0xdd, 0x73, 0x66, 0x73], "UTF-EBCDIC"],
  [[0x0e, 0xfe, 0xff], "SCSU"],
  [[0xfb, 0xee, 0x28], "BOCU-1"],
  [[0x84, 0x31, 0x95, 0x33], "GB-18030"],
];

const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/**
 * Decide how to decode a text file from its first bytes and the configured encoding
 * ("auto": BOM, else UTF-8 when valid, else Windows-1252). Binary content is refused.
 */
export function detectEncoding(head: Buffer, configured: string): { encoding: TextEncoding; bomLength: number; note: string | null } {
  for (const [bytes, name] of UNSUPPORTED_BOMS) {
    if (startsWith(head, bytes)) throw new UnreadableFileError(`Unsupported encoding: the file starts with a ${name} byte order mark`);
  }
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { encoding: "utf-8", bomLength: 3, note: null };
  if (startsWith(head, [0xff, 0xfe])) return { encoding: "utf-16le", bomLength: 2, note: null };
  if (startsWith(head, [0xfe, 0xff])) return { encoding: "utf-16be", bomLength: 2, note: null };
  if (configured !== "auto") {
    if (configured !== "utf-16le") assertText(head);
    return { encoding: configured as TextEncoding, bomLength: 0, note: null };
  }
  assertText(head);
  if (isUtf8(utf8Prefix(head))) return { encoding: "utf-8", bomLength: 0, note: null };
  return { encoding: "windows-1252", bomLength: 0, note: "Not valid UTF-8: read as Windows-1252" };
}

function assertText(head: Buffer) {
  let controls = 0;
  let zeros = 0;
  for (let i = 0; i < head.length; i++) {
    const b = head[i];
    if (b === 0) zeros++;
    else if (b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12) controls++;
  }
  if (zeros > 0) {
    throw new UnreadableFileError(
      zeros * 3 > head.length
        ? "Unknown encoding: the text looks like UTF-16 or UTF-32 without a byte order mark"
        : "Unknown encoding: the file contains binary data (NUL bytes)",
    );
  }
  if (controls > Math.max(8, head.length / 100)) {
    throw new UnreadableFileError("Unknown encoding: the file contains binary control characters");
  }
}

/** The longest prefix that does not end inside a UTF-8 sequence. */
function utf8Prefix(chunk: Buffer) {
  let end = chunk.length;
  for (let i = 1; i <= 3 && chunk.length - i >= 0; i++) {
    const b = chunk[chunk.length - i];
    if ((b & 0xc0) === 0x80) continue; // continuation byte: look further back
    if (b >= 0xc0) {
      const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      if (needed > i) end = chunk.length - i;
    }
    break;
  }
  return chunk.subarray(0, end);
}

/** Passes UTF-8 bytes through unchanged, failing on the first invalid sequence. */
export function utf8Validator(skip: number) {
  let carry: Buffer | null = null;
  let offset = 0;
  let skipped = skip;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      let data = chunk;
      if (skipped > 0) {
        const n = Math.min(skipped, data.length);
        data = data.subarray(n);
        skipped -= n;
      }
      const whole: Buffer = carry ? Buffer.concat([carry, data]) : data;
      const ok = utf8Prefix(whole);
      if (!isUtf8(ok)) return done(new EncodingMismatchError(`Invalid UTF-8 near byte ${offset.toLocaleString("en-US")}`));
      carry = ok.length < whole.length ? Buffer.from(whole.subarray(ok.length)) : null;
      offset += ok.length;
      done(null, ok);
    },
    flush(done) {
      if (carry && carry.length > 0) return done(new EncodingMismatchError("Invalid UTF-8 at the end of the file"));
      done();
    },
  });
}

/** Decodes any supported encoding to strings (used when the bytes are not UTF-8). */
export function decoder(encoding: TextEncoding, skip: number) {
  const text = new TextDecoder(encoding === "iso-8859-1" ? "latin1" : encoding);
  let skipped = skip;
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _enc, done) {
      let data = chunk;
      if (skipped > 0) {
        const n = Math.min(skipped, data.length);
        data = data.subarray(n);
        skipped -= n;
      }
      done(null, text.decode(data, { stream: true }));
    },
    flush(done) {
      const tail = text.decode();
      done(null, tail || undefined);
    },
  });
}

/** Guess the delimiter from the first lines: the candidate with the most consistent count. */
export function sniffDelimiter(sample: string) {
  const lines = sample
    .split(/\r?\n/)
    .filter((l) => l.length > 0)
    .slice(0, 20);
  if (lines.length > 1) lines.pop(); // the last line of a sample may be cut short
  let best = ",";
  let bestScore = 0;
  for (const candidate of [",", ";", "\t", "|"]) {
    const counts = lines.map((line) => countOutsideQuotes(line, candidate));
    const min = Math.min(...counts);
    if (min === 0) continue;
    const consistent = counts.filter((c) => c === counts[0]).length / counts.length;
    const score = min * consistent;
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

function countOutsideQuotes(line: string, ch: string) {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ch && !quoted) n++;
  }
  return n;
}
