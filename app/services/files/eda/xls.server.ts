import CFB from "cfb";
import { UnreadableFileError } from "./errors";
import { ProfileLimitError, SheetProfiler, type Cell } from "./profiler";
import type { TableOptions } from "./csv.server";
import { excelSerialToMs, isDateFormatCode } from "./xlsx.server";
import type { SheetProfile } from "./types";

/** Legacy .xls is read whole (the format has no streaming order guarantees); keep it small. */
export const XLS_MAX_BYTES = 64 * 1024 * 1024;
const MAX_STRING_CHARS = 64 * 1024 * 1024;
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/**
 * Profile every worksheet of a BIFF8 (.xls, Excel 97–2003) workbook: the compound file is
 * opened with cfb and the cell records (NUMBER, RK, MULRK, LABELSST, LABEL, BOOLERR,
 * FORMULA) are decoded here.
 */
export function profileXls(bytes: Buffer, options: Omit<TableOptions, "name" | "delimiter" | "encoding">): SheetProfile[] {
  if (bytes.length > XLS_MAX_BYTES) throw new UnreadableFileError("This .xls file is over 64 MB: save it as .xlsx or .csv");
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: "buffer" });
  } catch (error) {
    throw new UnreadableFileError(`Not a readable .xls file: ${(error as Error).message}`);
  }
  const entry = CFB.find(container, "Workbook") ?? CFB.find(container, "Book");
  if (!entry?.content) throw new UnreadableFileError("Not an Excel 97–2003 workbook (no Workbook stream)");
  const stream = Buffer.from(entry.content as Uint8Array);
  if (!CFB.find(container, "Workbook")) throw new UnreadableFileError("Excel 5.0/95 workbooks are not supported: save as .xlsx");
  const globals = readGlobals(stream);
  const results: SheetProfile[] = [];
  for (const sheet of globals.sheets) {
    try {
      results.push(readSheet(stream, sheet, globals, options));
    } catch (error) {
      if (error instanceof ProfileLimitError) throw new UnreadableFileError(`${error.message} in sheet ${sheet.name}`);
      throw error;
    }
  }
  if (results.length === 0) throw new UnreadableFileError("The workbook has no worksheets");
  return results;
}

type Globals = { sheets: { name: string; offset: number }[]; strings: string[]; dateXfs: Set<number>; date1904: boolean };

function* records(stream: Buffer, start: number) {
  let pos = start;
  while (pos + 4 <= stream.length) {
    const type = stream.readUInt16LE(pos);
    const length = stream.readUInt16LE(pos + 2);
    const end = pos + 4 + length;
    if (end > stream.length) throw new UnreadableFileError("The .xls file is truncated");
    yield { type, data: stream.subarray(pos + 4, end) };
    pos = end;
  }
}

function readGlobals(stream: Buffer): Globals {
  const sheets: Globals["sheets"] = [];
  const customDate = new Set<number>();
  const xfFormats: number[] = [];
  let strings: string[] = [];
  let date1904 = false;
  let sst: Buffer[] | null = null;
  for (const { type, data } of records(stream, 0)) {
    if (sst && type !== 0x003c) {
      strings = readSst(sst);
      sst = null;
    }
    switch (type) {
      case 0x0085: // BOUNDSHEET8: only worksheets (dt = 0)
        if (data[5] === 0) sheets.push({ offset: data.readUInt32LE(0), name: shortString(data, 6) });
        break;
      case 0x00fc: // SST, continued by CONTINUE records
        sst = [data];
        break;
      case 0x003c:
        sst?.push(data);
        break;
      case 0x00e0: // XF: its number format
        xfFormats.push(data.readUInt16LE(2));
        break;
      case 0x041e: {
        // FORMAT
        const id = data.readUInt16LE(0);
        if (isDateFormatCode(unicodeString(data, 2).text)) customDate.add(id);
        break;
      }
      case 0x0022:
        date1904 = data.readUInt16LE(0) === 1;
        break;
      case 0x000a: {
        if (sst) strings = readSst(sst);
        const dateXfs = new Set<number>();
        xfFormats.forEach((fmt, i) => (BUILTIN_DATE_FORMATS.has(fmt) || customDate.has(fmt)) && dateXfs.add(i));
        return { sheets, strings, dateXfs, date1904 };
      }
    }
  }
  throw new UnreadableFileError("The .xls file ends before its workbook globals");
}

function shortString(data: Buffer, pos: number) {
  const length = data[pos];
  const high = data[pos + 1] & 1;
  const raw = data.subarray(pos + 2, pos + 2 + length * (high ? 2 : 1));
  return high ? raw.toString("utf16le") : raw.toString("latin1");
}

/** XLUnicodeString: u16 length, flags, characters. */
function unicodeString(data: Buffer, pos: number) {
  const length = data.readUInt16LE(pos);
  const high = data[pos + 2] & 1;
  const start = pos + 3;
  const end = start + length * (high ? 2 : 1);
  return { text: high ? data.subarray(start, end).toString("utf16le") : data.subarray(start, end).toString("latin1"), end };
}

/** The shared string table: strings may break across CONTINUE records, each restating the width flag. */
function readSst(segments: Buffer[]) {
  let seg = 0;
  let pos = 8;
  const strings: string[] = [];
  const count = segments[0].readUInt32LE(4);
  let total = 0;
  const ensure = () => {
    while (seg < segments.length && pos >= segments[seg].length) {
      seg++;
      pos = 0;
    }
    if (seg >= segments.length) throw new UnreadableFileError("The .xls shared strings are truncated");
  };
  const u8 = () => {
    ensure();
    return segments[seg][pos++];
  };
  const u16 = () => u8() | (u8() << 8);
  const u32 = () => (u16() | (u16() << 16)) >>> 0;
  const skip = (n: number) => {
    for (let i = 0; i < n; i++) u8();
  };
  for (let i = 0; i < count; i++) {
    const length = u16();
    const flags = u8();
    let high = flags & 1;
    const runs = flags & 8 ? u16() : 0;
    const ext = flags & 4 ? u32() : 0;
    let text = "";
    let left = length;
    while (left > 0) {
      if (pos >= segments[seg].length) {
        seg++;
        pos = 0;
        if (seg >= segments.length) throw new UnreadableFileError("The .xls shared strings are truncated");
        high = segments[seg][pos++] & 1; // a CONTINUE restates the character width
      }
      const width = high ? 2 : 1;
      const available = Math.floor((segments[seg].length - pos) / width);
      const take = Math.min(left, available);
      const raw = segments[seg].subarray(pos, pos + take * width);
      text += high ? raw.toString("utf16le") : raw.toString("latin1");
      pos += take * width;
      left -= take;
      if (take === 0 && left > 0) pos = segments[seg].length;
    }
    skip(runs * 4 + ext);
    total += text.length;
    if (total > MAX_STRING_CHARS) throw new UnreadableFileError("The workbook's shared strings are too large");
    strings.push(text);
  }
  return strings;
}

function rkValue(rk: number) {
  let value: number;
  if (rk & 2) value = rk >> 2;
  else {
    const buffer = Buffer.alloc(8);
    buffer.writeUInt32LE(rk & 0xfffffffc, 4);
    value = buffer.readDoubleLE(0);
  }
  return rk & 1 ? value / 100 : value;
}

function readSheet(
  stream: Buffer,
  sheet: Globals["sheets"][number],
  globals: Globals,
  options: Omit<TableOptions, "name" | "delimiter" | "encoding">,
) {
  const rows = new Map<number, Cell[]>();
  const number = (xf: number, value: number): Cell =>
    globals.dateXfs.has(xf) ? new Date(excelSerialToMs(value, globals.date1904)) : value;
  const set = (row: number, col: number, cell: Cell) => {
    if (col >= 256) throw new UnreadableFileError(`Too many columns in sheet ${sheet.name}`);
    if (cell === null || cell === "") return;
    let cells = rows.get(row);
    if (!cells) rows.set(row, (cells = []));
    while (cells.length < col) cells.push(null);
    cells[col] = cell;
  };
  let pendingFormula: { row: number; col: number } | null = null;
  let first = true;
  for (const { type, data } of records(stream, sheet.offset)) {
    if (first) {
      if (type !== 0x0809) throw new UnreadableFileError(`The sheet ${sheet.name} does not start where the workbook says`);
      first = false;
      continue;
    }
    if (type === 0x000a) break;
    if (data.length < 6 && type !== 0x0207) continue;
    switch (type) {
      case 0x0203:
        set(data.readUInt16LE(0), data.readUInt16LE(2), number(data.readUInt16LE(4), data.readDoubleLE(6)));
        break;
      case 0x027e:
        set(data.readUInt16LE(0), data.readUInt16LE(2), number(data.readUInt16LE(4), rkValue(data.readInt32LE(6))));
        break;
      case 0x00bd: {
        const row = data.readUInt16LE(0);
        const firstCol = data.readUInt16LE(2);
        const n = (data.length - 6) / 6;
        for (let i = 0; i < n; i++) {
          const at = 4 + i * 6;
          set(row, firstCol + i, number(data.readUInt16LE(at), rkValue(data.readInt32LE(at + 2))));
        }
        break;
      }
      case 0x00fd:
        set(data.readUInt16LE(0), data.readUInt16LE(2), globals.strings[data.readUInt32LE(6)] ?? null);
        break;
      case 0x0204:
      case 0x00d6:
        set(data.readUInt16LE(0), data.readUInt16LE(2), unicodeString(data, 6).text);
        break;
      case 0x0205:
        if (data[7] === 0) set(data.readUInt16LE(0), data.readUInt16LE(2), data[6] === 1);
        break;
      case 0x0006: {
        const row = data.readUInt16LE(0);
        const col = data.readUInt16LE(2);
        if (data.readUInt16LE(12) === 0xffff) {
          if (data[6] === 0) pendingFormula = { row, col };
          else if (data[6] === 1) set(row, col, data[8] === 1);
        } else {
          set(row, col, number(data.readUInt16LE(4), data.readDoubleLE(6)));
        }
        break;
      }
      case 0x0207:
        if (pendingFormula) set(pendingFormula.row, pendingFormula.col, unicodeString(data, 0).text);
        pendingFormula = null;
        break;
    }
  }
  const profiler = new SheetProfiler(sheet.name, { maxColumns: options.maxColumns, dateOrder: options.dateOrder });
  const headerIndex = options.headerRow > 0 ? options.headerRow - 1 : -1;
  let headerDone = headerIndex < 0;
  for (const index of [...rows.keys()].sort((a, b) => a - b)) {
    if (index < headerIndex) continue;
    const cells = rows.get(index)!;
    if (!headerDone) {
      profiler.setHeader(cells);
      headerDone = true;
    } else profiler.addRow(cells);
  }
  return profiler.finish();
}
