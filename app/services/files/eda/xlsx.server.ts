import { UnreadableFileError } from "./errors";
import { ProfileLimitError, SheetProfiler, type Cell } from "./profiler";
import type { TableOptions } from "./csv.server";
import { parseXml, readXml, type XmlHandlers } from "./xml.server";
import type { ZipReader } from "./zip.server";
import type { SheetProfile } from "./types";

/** Excel's own limit; a sheet claiming cells beyond it is hostile, not a spreadsheet. */
export const EXCEL_MAX_COLUMNS = 16_384;
const MAX_SHARED_STRING_CHARS = 64 * 1024 * 1024;
const MAX_SHEETS = 100;

export type SheetRef = { name: string; path: string };

/** Profile every sheet of an .xlsx workbook, streaming each sheet's XML. */
export async function profileXlsx(zip: ZipReader, options: Omit<TableOptions, "name" | "delimiter" | "encoding">): Promise<SheetProfile[]> {
  const book = await readWorkbookIndex(zip, options.maxRowBytes);
  const results: SheetProfile[] = [];
  let rowsBefore = 0;
  for (const ref of book.refs) {
    const profile = await profileSheet(zip, ref, book, {
      ...options,
      onProgress: options.onProgress ? (rows) => options.onProgress!(rowsBefore + rows) : undefined,
    });
    rowsBefore += profile.rows;
    results.push(profile);
  }
  return results;
}

export type WorkbookIndex = { refs: SheetRef[]; date1904: boolean; strings: string[]; dateStyles: Set<number> };

/**
 * What reading any sheet needs, read first by random access (the workbook part may come last in
 * the archive): the sheets in order with their parts, the shared strings, the date styles.
 */
export async function readWorkbookIndex(zip: ZipReader, maxText: number): Promise<WorkbookIndex> {
  const { refs, date1904 } = await readWorkbook(zip, maxText);
  if (refs.length === 0) throw new UnreadableFileError("The workbook has no sheets");
  if (refs.length > MAX_SHEETS) throw new UnreadableFileError(`The workbook has more than ${MAX_SHEETS} sheets`);
  for (const ref of refs) if (!zip.has(ref.path)) throw new UnreadableFileError(`The workbook is missing the sheet ${ref.name}`);
  const strings = zip.has("xl/sharedStrings.xml") ? await readSharedStrings(zip, maxText) : [];
  const dateStyles = zip.has("xl/styles.xml") ? await readDateStyles(zip, maxText) : new Set<number>();
  return { refs, date1904, strings, dateStyles };
}

async function readWorkbook(zip: ZipReader, maxText: number) {
  const sheets: { name: string; rid: string }[] = [];
  let date1904 = false;
  await readXml(
    await zip.open("xl/workbook.xml"),
    {
      open(name, a) {
        if (name === "sheet") sheets.push({ name: a.name ?? `Sheet${sheets.length + 1}`, rid: a["r:id"] ?? a.id ?? "" });
        if (name === "workbookPr" && (a.date1904 === "1" || a.date1904 === "true")) date1904 = true;
      },
    },
    maxText,
  );
  const targets = new Map<string, string>();
  if (zip.has("xl/_rels/workbook.xml.rels")) {
    await readXml(
      await zip.open("xl/_rels/workbook.xml.rels"),
      { open: (name, a) => name === "Relationship" && a.Id && a.Target && targets.set(a.Id, a.Target) },
      maxText,
    );
  }
  const refs: SheetRef[] = sheets.map((s, i) => {
    const target = targets.get(s.rid) ?? `worksheets/sheet${i + 1}.xml`;
    const path = target.startsWith("/") ? target.slice(1) : `xl/${target}`;
    return { name: s.name, path: path.replace(/\/\.\//g, "/") };
  });
  return { refs, date1904 };
}

async function readSharedStrings(zip: ZipReader, maxText: number) {
  const strings: string[] = [];
  let current = "";
  let inT = false;
  let inPhonetic = false;
  let total = 0;
  await readXml(
    await zip.open("xl/sharedStrings.xml"),
    {
      open(name) {
        if (name === "si") current = "";
        else if (name === "t") inT = true;
        else if (name === "rPh") inPhonetic = true;
      },
      close(name) {
        if (name === "t") inT = false;
        else if (name === "rPh") inPhonetic = false;
        else if (name === "si") {
          total += current.length;
          if (total > MAX_SHARED_STRING_CHARS) throw new UnreadableFileError("The workbook's shared strings are too large");
          strings.push(current);
        }
      },
      text(text) {
        if (inT && !inPhonetic) current += text;
      },
    },
    maxText,
  );
  return strings;
}

const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Which cell style indexes format numbers as dates (Excel stores dates as day numbers). */
async function readDateStyles(zip: ZipReader, maxText: number) {
  const customDate = new Set<number>();
  const dateStyles = new Set<number>();
  let inCellXfs = false;
  let index = 0;
  await readXml(
    await zip.open("xl/styles.xml"),
    {
      open(name, a) {
        if (name === "numFmt" && isDateFormatCode(a.formatCode ?? "")) customDate.add(Number(a.numFmtId));
        else if (name === "cellXfs") inCellXfs = true;
        else if (name === "xf" && inCellXfs) {
          const id = Number(a.numFmtId ?? 0);
          if (BUILTIN_DATE_FORMATS.has(id) || customDate.has(id)) dateStyles.add(index);
          index++;
        }
      },
      close(name) {
        if (name === "cellXfs") inCellXfs = false;
      },
    },
    maxText,
  );
  return dateStyles;
}

/** A number format is a date format when it has d, m, y, h or s outside quotes and brackets. */
export function isDateFormatCode(code: string) {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** Excel day number → epoch ms (1900 system, with its phantom 29 Feb 1900; or 1904). */
export function excelSerialToMs(serial: number, date1904: boolean) {
  const epochDays = date1904 ? 24_107 : 25_569;
  return Math.round((serial - epochDays) * 86_400_000);
}

function columnIndex(ref: string) {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
    if (n > EXCEL_MAX_COLUMNS) return n;
  }
  return n - 1;
}

async function profileSheet(
  zip: ZipReader,
  ref: SheetRef,
  book: WorkbookIndex,
  options: Omit<TableOptions, "name" | "delimiter" | "encoding">,
) {
  const profiler = new SheetProfiler(ref.name, { maxColumns: options.maxColumns, dateOrder: options.dateOrder });
  const headerIndex = options.headerRow > 0 ? options.headerRow - 1 : -1;
  let headerDone = headerIndex < 0;
  const handlers = sheetRowHandlers(ref, book, (rowIndex, row) => {
    if (rowIndex < headerIndex) return;
    if (!headerDone) {
      headerDone = true;
      profiler.setHeader(row);
      return;
    }
    profiler.addRow(row);
    if (options.onProgress && profiler.rowCount % 25_000 === 0) options.onProgress(profiler.rowCount);
  });
  try {
    await readXml(await zip.open(ref.path), handlers, options.maxRowBytes, options.signal);
  } catch (error) {
    if (error instanceof ProfileLimitError) throw new UnreadableFileError(`${error.message} in sheet ${ref.name}`);
    throw error;
  }
  return profiler.finish();
}

export type SheetRow = { index: number; cells: Cell[] };

/**
 * The rows of one sheet (0-based row index, cells by column), read a chunk of XML at a time:
 * each yield hands over the rows completed in that chunk (often none), so a 100 000-row sheet
 * never sits in memory. Rows without a value are left out.
 */
export async function* sheetRows(
  zip: ZipReader,
  ref: SheetRef,
  book: WorkbookIndex,
  maxTextBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<SheetRow[]> {
  let done: SheetRow[] = [];
  const handlers = sheetRowHandlers(ref, book, (index, cells) => done.push({ index, cells }));
  for await (const _chunk of parseXml(await zip.open(ref.path), handlers, maxTextBytes, signal)) {
    if (done.length === 0) continue;
    yield done;
    done = [];
  }
  if (done.length > 0) yield done;
}

/** SAX handlers that turn a sheet's XML into rows, handing each row with a value to `onRow`. */
function sheetRowHandlers(ref: SheetRef, book: WorkbookIndex, onRow: (rowIndex: number, row: Cell[]) => void): XmlHandlers {
  let row: Cell[] = [];
  let rowIndex = -1;
  let col = -1;
  let cellType = "n";
  let cellStyle = 0;
  let value = "";
  let inValue = false;
  let hasValue = false;
  let cellsInRow = 0;
  return {
    open(name, a) {
      if (name === "row") {
        const r = a.r ? Number(a.r) - 1 : rowIndex + 1;
        rowIndex = r > rowIndex ? r : rowIndex + 1;
        row = [];
        col = -1;
        cellsInRow = 0;
      } else if (name === "c") {
        col = a.r ? columnIndex(a.r) : col + 1;
        cellsInRow++;
        if (col >= EXCEL_MAX_COLUMNS || cellsInRow > EXCEL_MAX_COLUMNS) {
          throw new UnreadableFileError(
            `Too many columns: the sheet ${ref.name} has cells past column ${EXCEL_MAX_COLUMNS.toLocaleString("en-US")} (Excel's limit)`,
          );
        }
        cellType = a.t ?? "n";
        cellStyle = a.s ? Number(a.s) : 0;
        value = "";
        hasValue = false;
      } else if (name === "v" || (name === "t" && cellType === "inlineStr")) {
        inValue = true;
        hasValue = true;
      }
    },
    text(text) {
      if (inValue) value += text;
    },
    close(name) {
      if (name === "v" || name === "t") inValue = false;
      else if (name === "c") {
        if (!hasValue) return;
        const cell = toCell(cellType, value, cellStyle, book.strings, book.dateStyles, book.date1904);
        if (cell === null || cell === "") return;
        while (row.length < col) row.push(null);
        row[col] = cell;
      } else if (name === "row" && row.length > 0) {
        onRow(rowIndex, row);
      }
    },
  };
}

function toCell(type: string, raw: string, style: number, strings: string[], dateStyles: Set<number>, date1904: boolean): Cell {
  switch (type) {
    case "s": {
      const text = strings[Number(raw)];
      return text === undefined ? null : text;
    }
    case "str":
    case "inlineStr":
      return raw;
    case "b":
      return raw === "1" || raw === "true";
    case "e":
      return null;
    case "d":
      return new Date(raw);
    default: {
      const n = Number(raw);
      if (!Number.isFinite(n)) return raw;
      return dateStyles.has(style) ? new Date(excelSerialToMs(n, date1904)) : n;
    }
  }
}
