import { crc32, deflateRawSync } from "node:zlib";

export type ZipEntryInput = {
  name: string;
  data: Buffer | string;
  /** Pretend sizes (to build archives that lie about what they inflate to). */
  declaredSize?: number;
  /** Already-deflated bytes plus their true size and CRC (for huge bombs built in pieces). */
  raw?: { deflated: Buffer; size: number; crc: number };
  /** Store the bytes as they are (compression method 0) instead of deflating them. */
  store?: boolean;
};

/** A minimal zip writer for test fixtures (xlsx/docx files and zip bombs): deflated or stored entries. */
export function makeZip(entries: ZipEntryInput[]) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : entry.data;
    const method = entry.store ? 0 : 8;
    const deflated = entry.store ? data : (entry.raw?.deflated ?? deflateRawSync(data));
    const crc = entry.raw?.crc ?? crc32(data);
    const size = entry.declaredSize ?? entry.raw?.size ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, deflated);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + deflated.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function columnName(i: number) {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/** A small .xlsx: one entry per sheet; strings inline, numbers as numbers, Dates as styled serials. */
export function makeXlsx(
  sheets: { name: string; rows: (string | number | boolean | Date | null)[][] }[],
  extra: {
    sheetXml?: Record<number, string>;
    /** Stored (uncompressed) parts instead of deflated ones. */
    store?: boolean;
    /** The workbook part after the sheets, as ExcelJS and others write it (Excel writes it first). */
    workbookLast?: boolean;
  } = {},
) {
  const workbook = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets
    .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
    .join("")}</sheets></workbook>`;
  const rels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
    .map(
      (_, i) =>
        `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
    )
    .join("")}</Relationships>`;
  const styles = `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="mm/dd/yyyy"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>`;
  const sheetXml = (rows: (string | number | boolean | Date | null)[][]) =>
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows
      .map(
        (row, r) =>
          `<row r="${r + 1}">${row
            .map((v, c) => {
              const ref = `${columnName(c)}${r + 1}`;
              if (v === null) return "";
              if (typeof v === "number") return `<c r="${ref}"><v>${v}</v></c>`;
              if (typeof v === "boolean") return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
              if (v instanceof Date) return `<c r="${ref}" s="1"><v>${v.getTime() / 86_400_000 + 25_569}</v></c>`;
              return `<c r="${ref}" t="inlineStr"><is><t>${esc(v)}</t></is></c>`;
            })
            .join("")}</row>`,
      )
      .join("")}</sheetData></worksheet>`;
  const workbookPart = { name: "xl/workbook.xml", data: workbook };
  const parts = [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
    },
    ...(extra.workbookLast ? [] : [workbookPart]),
    { name: "xl/_rels/workbook.xml.rels", data: rels },
    { name: "xl/styles.xml", data: styles },
    ...sheets.map((s, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data: extra.sheetXml?.[i] ?? sheetXml(s.rows) })),
    ...(extra.workbookLast ? [workbookPart] : []),
  ];
  return makeZip(parts.map((part) => ({ ...part, store: extra.store })));
}
