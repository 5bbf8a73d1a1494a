import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

// A streaming CSV reader for exports (RFC 4180 plus what real exports do): a UTF-8 BOM, CRLF,
// LF or CR line ends, quoted fields with "" escapes and line breaks inside, stray quotes inside
// unquoted fields kept as text, ragged rows. It yields each record with the line it starts on.
// Hand-rolled because it is the hot loop of every import: several times faster than a general
// parser with per-record metadata. Records come out in batches (one per chunk read): an async
// generator step per record costs a few promises each, the largest share of an import's garbage.

export type CsvRecord = { line: number; cells: string[] };

/** Records one at a time (convenient; the import reads `readCsvBatches`). */
export async function* readCsv(stream: Readable, delimiter = ","): AsyncIterable<CsvRecord> {
  for await (const batch of readCsvBatches(stream, delimiter)) yield* batch;
}

/** The records completed by each chunk of the stream, as one array per chunk. */
export async function* readCsvBatches(stream: Readable, delimiter = ","): AsyncIterable<CsvRecord[]> {
  const decoder = new StringDecoder("utf8");
  const d = delimiter.charCodeAt(0);
  const QUOTE = 34;
  const CR = 13;
  const LF = 10;
  let first = true;
  let cells: string[] = [];
  let field = "";
  let quoted = false; // inside a quoted field
  let afterQuote = false; // just closed a quoted field
  let pendingQuote = false; // a quote at the end of a chunk: escape or close, decided by the next char
  let line = 1;
  let recordLine = 1;
  let skipLf = false;
  let out: CsvRecord[] = [];

  const endRecord = () => {
    cells.push(field);
    field = "";
    afterQuote = false;
    // A line holding nothing is a blank line, not a record.
    if (!(cells.length === 1 && cells[0] === "")) out.push({ line: recordLine, cells });
    cells = [];
  };

  function feed(text: string) {
    let i = 0;
    const n = text.length;
    if (pendingQuote) {
      pendingQuote = false;
      if (n > 0 && text.charCodeAt(0) === QUOTE) {
        field += '"';
        i = 1;
      } else {
        quoted = false;
        afterQuote = true;
      }
    }
    let start = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (quoted) {
        if (c === QUOTE) {
          field += text.slice(start, i);
          if (i + 1 >= n) {
            pendingQuote = true;
            return;
          }
          if (text.charCodeAt(i + 1) === QUOTE) {
            field += '"';
            i += 2;
          } else {
            quoted = false;
            afterQuote = true;
            i += 1;
          }
          start = i;
          continue;
        }
        if (c === LF || (c === CR && text.charCodeAt(i + 1) !== LF)) line++;
        i++;
        continue;
      }
      if (skipLf) {
        skipLf = false;
        if (c === LF) {
          i++;
          start = i;
          continue;
        }
      }
      if (c === d) {
        field += text.slice(start, i);
        cells.push(field);
        field = "";
        afterQuote = false;
        i++;
        start = i;
      } else if (c === LF || c === CR) {
        field += text.slice(start, i);
        endRecord();
        line++;
        recordLine = line;
        if (c === CR) skipLf = true;
        i++;
        start = i;
      } else if (c === QUOTE && field === "" && start === i && !afterQuote) {
        quoted = true;
        i++;
        start = i;
      } else {
        i++;
      }
    }
    field += text.slice(start, n);
  }

  for await (const chunk of stream) {
    let text = typeof chunk === "string" ? chunk : decoder.write(chunk as Buffer);
    // PostgreSQL refuses NUL in text and jsonb: one stray byte in an export would fail its import.
    if (text.includes("\u0000")) text = text.replaceAll("\u0000", "");
    if (first) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = text.length === 0;
    }
    feed(text);
    if (out.length > 0) {
      const ready = out;
      out = [];
      yield ready;
    }
  }
  feed(decoder.end());
  if (pendingQuote) {
    pendingQuote = false;
    quoted = false;
  }
  if (field !== "" || cells.length > 0) endRecord();
  if (out.length > 0) yield out;
}
