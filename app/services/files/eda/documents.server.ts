import type { Readable } from "node:stream";
import CFB from "cfb";
import type { FileMetadata } from "~/db/schema";
import { UnreadableFileError } from "./errors";
import { readXml } from "./xml.server";
import type { ZipReader } from "./zip.server";

const PAGE_RE = /\/Type\s*\/Page(?![A-Za-z])/g;
const OVERLAP = 64;

/**
 * PDF metadata in one bounded pass: the version and, where cheap, the page count (page
 * objects that are not hidden in compressed object streams; null when none are visible).
 */
export async function pdfMetadata(stream: Readable): Promise<FileMetadata> {
  let tail = "";
  let base = 0; // absolute offset of text[0]
  let countedUntil = 0; // absolute end of the last page object counted
  let pages = 0;
  let version: string | null = null;
  let title: string | null = null;
  // A match ending at the very end of the window may continue ("/Pages"): it is counted
  // when the next window confirms it, or at the end of the file.
  const count = (text: string, final: boolean) => {
    PAGE_RE.lastIndex = 0;
    for (let m = PAGE_RE.exec(text); m; m = PAGE_RE.exec(text)) {
      const end = base + m.index + m[0].length;
      if (end > countedUntil && (final || m.index + m[0].length < text.length)) {
        pages++;
        countedUntil = end;
      }
    }
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const text = tail + chunk.toString("latin1");
    if (version === null) {
      const v = /%PDF-(\d\.\d)/.exec(text);
      if (!v) throw new UnreadableFileError("Not a PDF: the %PDF header is missing");
      version = v[1];
    }
    if (title === null) {
      const t = /\/Title\s*\(([^()\\]{1,200})\)/.exec(text);
      if (t) title = t[1];
    }
    count(text, false);
    tail = text.slice(-OVERLAP);
    base += text.length - tail.length;
  }
  if (version === null) throw new UnreadableFileError("Not a PDF: the file is empty");
  count(tail, true);
  return { version, pages: pages > 0 ? pages : null, title };
}

/** .docx metadata from docProps (pages and words as Word last saved them; title, author). */
export async function docxMetadata(zip: ZipReader, maxText: number): Promise<FileMetadata> {
  if (!zip.has("word/document.xml")) throw new UnreadableFileError("Not a Word document: word/document.xml is missing");
  const meta: FileMetadata = { pages: null, words: null, title: null, author: null };
  let current = "";
  let text = "";
  const handlers = {
    open: (name: string) => {
      current = name;
      text = "";
    },
    text: (t: string) => {
      text += t;
    },
    close: (name: string) => {
      if (name !== current) return;
      const value = text.trim();
      if (!value) return;
      if (name === "Pages") meta.pages = Number(value) || null;
      else if (name === "Words") meta.words = Number(value) || null;
      else if (name === "title") meta.title = value.slice(0, 200);
      else if (name === "creator") meta.author = value.slice(0, 200);
    },
  };
  if (zip.has("docProps/app.xml")) await readXml(await zip.open("docProps/app.xml"), handlers, maxText);
  if (zip.has("docProps/core.xml")) await readXml(await zip.open("docProps/core.xml"), handlers, maxText);
  return meta;
}

/** Word 97–2003 metadata: the page count from the SummaryInformation property set. */
export function docMetadata(bytes: Buffer): FileMetadata {
  if (bytes.subarray(0, 5).toString("latin1") === "{\\rtf") return { pages: null, version: "RTF" };
  let container: CFB.CFB$Container;
  try {
    container = CFB.read(bytes, { type: "buffer" });
  } catch (error) {
    throw new UnreadableFileError(`Not a readable Word document: ${(error as Error).message}`);
  }
  if (!CFB.find(container, "WordDocument")) throw new UnreadableFileError("Not a Word document: no WordDocument stream");
  const summary = CFB.find(container, "\u0005SummaryInformation");
  const meta: FileMetadata = { pages: null, title: null, author: null };
  if (summary?.content) {
    try {
      Object.assign(meta, summaryProperties(Buffer.from(summary.content as Uint8Array)));
    } catch {
      // A damaged property set only costs us the page count.
    }
  }
  return meta;
}

function summaryProperties(data: Buffer) {
  const sectionOffset = data.readUInt32LE(44);
  const count = data.readUInt32LE(sectionOffset + 4);
  const result: FileMetadata = {};
  for (let i = 0; i < Math.min(count, 64); i++) {
    const id = data.readUInt32LE(sectionOffset + 8 + i * 8);
    const at = sectionOffset + data.readUInt32LE(sectionOffset + 12 + i * 8);
    const type = data.readUInt32LE(at);
    if (id === 14 && type === 3) result.pages = data.readInt32LE(at + 4);
    if ((id === 2 || id === 4) && type === 30) {
      const length = data.readUInt32LE(at + 4);
      const text = data
        .subarray(at + 8, at + 8 + Math.min(length, 200))
        .toString("latin1")
        .replace(/\0.*$/, "");
      if (id === 2) result.title = text || null;
      else result.author = text || null;
    }
  }
  return result;
}
