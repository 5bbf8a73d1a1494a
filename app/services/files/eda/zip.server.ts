import { Transform, type Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { UnreadableFileError } from "./errors";

const MAX_ENTRIES = 10_000;
/** Real workbooks compress XML 10–100×; far beyond that is a bomb, not a spreadsheet. */
const MAX_RATIO = 1_000;
const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

export type ZipReader = {
  has(name: string): boolean;
  /** The entry's decompressed bytes, counted against the archive's decompressed-size cap. */
  open(name: string): Promise<Readable>;
  close(): void;
};

/**
 * Open an Office (zip) file with a cap on what it may decompress to, so a zip bomb disguised
 * as .xlsx or .docx fails fast instead of filling memory or disk.
 */
export async function openZip(file: string, maxUncompressed: number): Promise<ZipReader> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false }, (error, z) =>
      error ? reject(new UnreadableFileError(`Not a readable Office file: ${error.message}`)) : resolve(z),
    ),
  );
  const entries = new Map<string, Entry>();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (entry: Entry) => {
        if (entries.size >= MAX_ENTRIES) return reject(new UnreadableFileError("Zip bomb suspected: too many entries in the archive"));
        if (entry.uncompressedSize > maxUncompressed) {
          return reject(
            new UnreadableFileError(
              `Zip bomb suspected: ${entry.fileName} would decompress to ${mb(entry.uncompressedSize)} (the cap is ${mb(maxUncompressed)})`,
            ),
          );
        }
        if (entry.uncompressedSize > RATIO_FLOOR_BYTES && entry.uncompressedSize > entry.compressedSize * MAX_RATIO) {
          return reject(new UnreadableFileError(`Zip bomb suspected: ${entry.fileName} has a compression ratio over ${MAX_RATIO}:1`));
        }
        entries.set(entry.fileName.replace(/^\/+/, ""), entry);
        zip.readEntry();
      });
      zip.on("end", () => resolve());
      zip.on("error", (error: Error) => reject(new UnreadableFileError(`Not a readable Office file: ${error.message}`)));
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  let total = 0;
  return {
    has: (name) => entries.has(name),
    async open(name) {
      const entry = entries.get(name);
      if (!entry) throw new UnreadableFileError(`The archive has no ${name}`);
      const stream = await new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, s) =>
          error ? reject(new UnreadableFileError(`Cannot read ${name}: ${error.message}`)) : resolve(s),
        ),
      );
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          total += chunk.length;
          if (total > maxUncompressed) {
            return done(new UnreadableFileError(`Zip bomb suspected: the archive decompresses to more than ${mb(maxUncompressed)}`));
          }
          done(null, chunk);
        },
      });
      stream.on("error", (error) =>
        counter.destroy(
          error instanceof UnreadableFileError
            ? error
            : new UnreadableFileError(
                /too many bytes|size/i.test(error.message)
                  ? `Zip bomb suspected: ${name} inflates past its declared size`
                  : `The archive is corrupt: ${error.message}`,
              ),
        ),
      );
      counter.on("close", () => stream.destroy());
      return stream.pipe(counter);
    },
    close: () => zip.close(),
  };
}

function mb(bytes: number) {
  return `${Math.round(bytes / 1024 / 1024).toLocaleString("en-US")} MB`;
}
