import { FILE_EXTENSIONS, type FileExtension } from "~/db/schema";

export const CONTENT_TYPES: Record<FileExtension, string> = {
  csv: "text/csv",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export const TABULAR_EXTENSIONS: readonly FileExtension[] = ["csv", "xls", "xlsx"];

export const ACCEPTED_TYPES_MESSAGE = "Only .csv, .xls, .xlsx, .pdf, .doc and .docx files can be uploaded.";

/** Bytes inspected before anything is stored: enough for every signature below. */
export const SNIFF_BYTES = 4096;

/**
 * The name as we show it: no path, no control characters, no leading dots, at most 200
 * characters. The bytes are stored under a generated key, never under this name.
 */
export function sanitizeFileName(raw: string) {
  const base = raw.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  let name = base.normalize("NFC").replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "");
  name = name.replace(/^[.\s]+/, "").trim();
  if (name.length > 200) {
    const dot = name.lastIndexOf(".");
    const ext = dot > 0 ? name.slice(dot) : "";
    name = name.slice(0, 200 - ext.length) + ext;
  }
  return name;
}

/** The accepted extension of a (sanitized) name, or null. */
export function extensionOf(name: string): FileExtension | null {
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  const ext = name.slice(dot + 1).toLowerCase();
  return (FILE_EXTENSIONS as readonly string[]).includes(ext) ? (ext as FileExtension) : null;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const BINARY_SIGNATURES: [number[], string][] = [
  [ZIP, "a zip archive (Office document)"],
  [OLE, "an Office 97–2003 document"],
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "a PDF"],
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x4d, 0x5a], "a Windows program"],
  [[0x7f, 0x45, 0x4c, 0x46], "a program"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x37, 0x7a, 0xbc, 0xaf], "a 7-Zip archive"],
  [[0x52, 0x61, 0x72, 0x21], "a RAR archive"],
];
const TEXT_BOMS = [
  [0xef, 0xbb, 0xbf],
  [0xff, 0xfe],
  [0xfe, 0xff],
  [0x00, 0x00, 0xfe, 0xff],
];

const startsWith = (head: Uint8Array, bytes: number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);

/** The first entry's name in a zip's first local header (Office writers put their folder there). */
function firstZipEntry(head: Uint8Array) {
  if (head.length < 30) return "";
  const length = head[26] | (head[27] << 8);
  return Buffer.from(head.subarray(30, 30 + length)).toString("latin1");
}

/**
 * Does the content match the extension? Returns null when it does, else the user's message.
 * Signatures (magic bytes) for binary formats; for CSV, text that is not a known binary format.
 */
export function contentMismatch(ext: FileExtension, head: Uint8Array): string | null {
  const wrong = (what: string) => `The content does not match .${ext}: it looks like ${what}.`;
  const found = BINARY_SIGNATURES.find(([sig]) => startsWith(head, sig));
  switch (ext) {
    case "csv": {
      if (found) return wrong(found[1]);
      const hasBom = TEXT_BOMS.some((bom) => startsWith(head, bom));
      if (!hasBom && head.includes(0)) return wrong("binary data, not text");
      return null;
    }
    case "xlsx":
    case "docx": {
      if (!startsWith(head, ZIP)) return wrong(found ? found[1] : "something other than an Office document");
      const entry = firstZipEntry(head);
      if (ext === "xlsx" && /^(word|ppt)\//.test(entry)) return wrong(entry.startsWith("word/") ? "a Word document" : "a PowerPoint file");
      if (ext === "docx" && /^(xl|ppt)\//.test(entry)) return wrong(entry.startsWith("xl/") ? "an Excel workbook" : "a PowerPoint file");
      return null;
    }
    case "xls":
      return startsWith(head, OLE) ? null : wrong(found ? found[1] : "something other than an Excel 97–2003 workbook");
    case "doc":
      return startsWith(head, OLE) || startsWith(head, [0x7b, 0x5c, 0x72, 0x74, 0x66]) || startsWith(head, ZIP)
        ? null
        : wrong(found ? found[1] : "something other than a Word document");
    case "pdf": {
      const text = Buffer.from(head.subarray(0, 1024)).toString("latin1");
      return text.includes("%PDF-") ? null : wrong(found ? found[1] : "something other than a PDF");
    }
  }
}

/** The content does not match the file's extension (see contentMismatch); its message is the user's. */
export class ContentMismatchError extends Error {}

/**
 * Pass a part's bytes through once its first SNIFF_BYTES match `extension`: nothing is yielded
 * (so nothing is written) before the check, which throws ContentMismatchError when it fails.
 * Takes the iterator itself and never closes it, so the caller can drain the rest of the part.
 */
export async function* checkedContent(source: AsyncIterator<Uint8Array>, extension: FileExtension) {
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let checked = false;
  const check = () => {
    const problem = contentMismatch(extension, Buffer.concat(head));
    if (problem) throw new ContentMismatchError(problem);
    checked = true;
  };
  for (;;) {
    const next = await source.next();
    if (next.done) break;
    if (checked) {
      yield next.value;
      continue;
    }
    head.push(next.value);
    headBytes += next.value.length;
    if (headBytes >= SNIFF_BYTES) {
      check();
      yield* head;
    }
  }
  if (!checked && headBytes > 0) {
    check();
    yield* head;
  }
}
