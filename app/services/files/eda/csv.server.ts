import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import type { DateOrder } from "./classify";
import { EncodingMismatchError, UnreadableFileError } from "./errors";
import { ProfileLimitError, SheetProfiler } from "./profiler";
import { decoder, detectEncoding, peek, sniffDelimiter, utf8Validator, type TextEncoding } from "./text-stream";
import type { SheetProfile } from "./types";

export type TableOptions = {
  name: string;
  delimiter: string;
  headerRow: number;
  dateOrder: DateOrder;
  encoding: string;
  maxColumns: number;
  maxRowBytes: number;
  onProgress?: (rows: number) => void;
  signal?: AbortSignal;
};

export type CsvProfile = { sheet: SheetProfile; encoding: TextEncoding; delimiter: string; notes: string[] };

const PROGRESS_EVERY = 25_000;

/**
 * Profile a delimited text file in one streaming pass: bytes → decoder → csv-parse → profiler.
 * Memory stays bounded by one row plus the profiler's sketches. `open` is called again when
 * "auto" encoding finds invalid UTF-8 past the first 64 KB (then read as Windows-1252).
 */
export async function profileCsv(open: () => Promise<Readable>, options: TableOptions): Promise<CsvProfile> {
  try {
    return await profileOnce(await open(), options, options.encoding);
  } catch (error) {
    if (error instanceof EncodingMismatchError && options.encoding === "auto") {
      const result = await profileOnce(await open(), options, "windows-1252");
      result.notes.push("Not valid UTF-8: read as Windows-1252");
      return result;
    }
    throw error;
  }
}

async function profileOnce(source: Readable, options: TableOptions, configured: string): Promise<CsvProfile> {
  const { head, stream } = await peek(source, 64 * 1024);
  if (head.length === 0) throw new UnreadableFileError("The file is empty");
  const { encoding, bomLength, note } = detectEncoding(head, configured);
  const sample = new TextDecoder(encoding === "iso-8859-1" ? "latin1" : encoding).decode(head.subarray(bomLength));
  // Sniff from the header row on: report preambles above it have no delimiters.
  const fromHeader = sample
    .split("\n")
    .slice(Math.max(0, options.headerRow - 1))
    .join("\n");
  const delimiter = options.delimiter === "auto" ? sniffDelimiter(fromHeader) : options.delimiter;

  const profiler = new SheetProfiler(options.name, { maxColumns: options.maxColumns, dateOrder: options.dateOrder });
  const parser = parse({
    delimiter,
    // Strict quoting (a stray quote fails the file with a reason); the column count is
    // checked below, in order, so "too many columns" wins over "ragged" for a hostile header.
    relax_quotes: false,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: options.maxRowBytes,
    from_line: Math.max(1, options.headerRow),
    encoding: "utf8",
  });
  let first = options.headerRow > 0;
  let expected = 0;
  const sink = new Writable({
    objectMode: true,
    highWaterMark: 64,
    write(record: string[], _enc, done) {
      try {
        if (first) {
          first = false;
          expected = record.length;
          profiler.setHeader(record);
        } else {
          if (expected === 0) expected = record.length;
          if (record.length !== expected) {
            const row = profiler.rowCount + 1;
            throw new UnreadableFileError(
              `Ragged rows: data row ${row.toLocaleString("en-US")} has ${record.length.toLocaleString("en-US")} fields where ${expected.toLocaleString("en-US")} were expected`,
            );
          }
          profiler.addRow(record);
          if (options.onProgress && profiler.rowCount % PROGRESS_EVERY === 0) options.onProgress(profiler.rowCount);
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  const decode = encoding === "utf-8" ? utf8Validator(bomLength) : decoder(encoding, bomLength);
  try {
    await pipeline(stream, decode, parser, sink, { signal: options.signal });
  } catch (error) {
    throw describeCsvError(error);
  }
  const sheet = profiler.finish();
  return { sheet, encoding, delimiter, notes: note ? [note] : [] };
}

function describeCsvError(error: unknown) {
  if (error instanceof UnreadableFileError) return error;
  if (error instanceof ProfileLimitError) return new UnreadableFileError(error.message);
  if (error instanceof CsvError) {
    const line = (error as unknown as { lines?: number }).lines;
    const at = line ? ` (line ${line.toLocaleString("en-US")})` : "";
    switch (error.code as string) {
      case "CSV_INVALID_CLOSING_QUOTE":
      case "CSV_QUOTE_NOT_CLOSED":
      case "CSV_INVALID_OPENING_QUOTE":
      case "INVALID_OPENING_QUOTE":
      case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
        return new UnreadableFileError(`Bad quoting: ${quotingDetail(error.code)}${at}`);
      case "CSV_MAX_RECORD_SIZE":
        return new UnreadableFileError(`A row is too large: more than ${formatMb(error)} in one row — a huge cell?${at}`);
      default:
        return new UnreadableFileError(`The CSV could not be read: ${error.message}`);
    }
  }
  return error;
}

function quotingDetail(code: string) {
  if (code === "CSV_QUOTE_NOT_CLOSED") return "a quoted value is never closed";
  if (code.endsWith("INVALID_OPENING_QUOTE")) return "a quote opens in the middle of a value";
  return "text follows a closing quote";
}

function formatMb(error: CsvError) {
  const size = (error as unknown as { max_record_size?: number }).max_record_size;
  const bytes = typeof size === "number" ? size : Number(/of (\d+)/.exec(error.message)?.[1] ?? 0);
  return `${Math.round(bytes / 1024 / 1024)} MB`;
}
