import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FileExtension, FileMetadata } from "~/db/schema";
import type { FileStorage } from "~/services/files/storage.server";
import type { DateOrder } from "./classify";
import { profileCsv } from "./csv.server";
import { docMetadata, docxMetadata, pdfMetadata } from "./documents.server";
import { UnreadableFileError } from "./errors";
import type { EdaReport } from "./types";
import { XLS_MAX_BYTES, profileXls } from "./xls.server";
import { profileXlsx } from "./xlsx.server";
import { openZip } from "./zip.server";

export { UnreadableFileError } from "./errors";

export type ParseSettings = {
  delimiter: string;
  headerRow: number;
  dateFormat: string;
  encoding: string;
};

export type Limits = { maxColumns: number; maxRowBytes: number; maxUncompressed: number };

export type StoredFile = { name: string; extension: FileExtension; storageKey: string; size: number };

type Run = { storage: FileStorage; settings: ParseSettings; limits: Limits; onProgress?: (rows: number) => void; signal?: AbortSignal };

function dateOrder(format: string): DateOrder {
  if (format === "MM/dd/yyyy") return "mdy";
  if (format === "dd/MM/yyyy") return "dmy";
  return "auto";
}

/** The EDA report of a stored CSV / XLS / XLSX file; hostile input throws UnreadableFileError. */
export async function profileStoredFile(file: StoredFile, run: Run): Promise<EdaReport> {
  const started = performance.now();
  const table = {
    headerRow: run.settings.headerRow,
    dateOrder: dateOrder(run.settings.dateFormat),
    maxColumns: run.limits.maxColumns,
    maxRowBytes: run.limits.maxRowBytes,
    onProgress: run.onProgress,
    signal: run.signal,
  };
  const report = (format: EdaReport["format"], sheets: EdaReport["sheets"], extra: Partial<EdaReport> = {}): EdaReport => ({
    version: 1,
    fileName: file.name,
    format,
    generatedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    encoding: null,
    delimiter: null,
    sheets,
    warnings: [],
    ...extra,
  });
  switch (file.extension) {
    case "csv": {
      const result = await profileCsv(() => run.storage.read(file.storageKey), {
        ...table,
        name: file.name,
        delimiter: run.settings.delimiter,
        encoding: run.settings.encoding,
      });
      return report("csv", [result.sheet], { encoding: result.encoding, delimiter: result.delimiter, warnings: result.notes });
    }
    case "xlsx":
      return withLocalFile(run.storage, file, async (local) => {
        const zip = await openZip(local, run.limits.maxUncompressed);
        try {
          return report("xlsx", await profileXlsx(zip, table));
        } finally {
          zip.close();
        }
      });
    case "xls": {
      if (file.size > XLS_MAX_BYTES) throw new UnreadableFileError("This .xls file is over 64 MB: save it as .xlsx or .csv");
      return report("xls", profileXls(await readAll(run.storage, file.storageKey, XLS_MAX_BYTES), table));
    }
    default:
      throw new Error(`Not a tabular file: .${file.extension}`);
  }
}

/** Metadata of a stored PDF or Word file. */
export async function documentMetadata(file: StoredFile, run: Pick<Run, "storage" | "limits">): Promise<FileMetadata> {
  switch (file.extension) {
    case "pdf":
      return pdfMetadata(await run.storage.read(file.storageKey));
    case "docx":
      return withLocalFile(run.storage, file, async (local) => {
        const zip = await openZip(local, run.limits.maxUncompressed);
        try {
          return await docxMetadata(zip, run.limits.maxRowBytes);
        } finally {
          zip.close();
        }
      });
    case "doc": {
      const bytes = await readAll(run.storage, file.storageKey, XLS_MAX_BYTES);
      if (bytes.subarray(0, 4).toString("latin1") === "PK\u0003\u0004") {
        return withLocalFile(run.storage, file, async (local) => {
          const zip = await openZip(local, run.limits.maxUncompressed);
          try {
            return await docxMetadata(zip, run.limits.maxRowBytes);
          } finally {
            zip.close();
          }
        });
      }
      return docMetadata(bytes);
    }
    default:
      throw new Error(`Not a document: .${file.extension}`);
  }
}

/** Zip readers need random access: use the local file, or copy object storage to a temp file. */
async function withLocalFile<T>(storage: FileStorage, file: StoredFile, run: (local: string) => Promise<T>) {
  const local = storage.localPath(file.storageKey);
  if (local) return run(local);
  const temp = path.join(os.tmpdir(), `remarket-${randomUUID()}.${file.extension}`);
  try {
    await pipeline(await storage.read(file.storageKey), createWriteStream(temp));
    return await run(temp);
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function readAll(storage: FileStorage, key: string, maxBytes: number) {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of await storage.read(key)) {
    total += chunk.length;
    if (total > maxBytes) throw new UnreadableFileError(`The file is over ${Math.round(maxBytes / 1024 / 1024)} MB`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
