import { Readable, Transform, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import busboy from "busboy";

// Uploads are read with busboy (RFC 7578), streamed part by part: Remix's parser split part
// headers on every "=" and ";", so a file named "x=y.csv" was a 500 (issue 12 §3).

/** The body is not multipart/form-data we can read (no boundary, cut off, broken part headers). */
export class MalformedMultipartError extends Error {
  constructor(detail: string) {
    super(`The upload could not be read (${detail}) and nothing was kept. Please try again.`);
  }
}

/** The body went past the limit for its route: nothing of it is kept. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The request body is larger than ${maxBytes} bytes.`);
  }
}

export type FilePart = { field: string; fileName: string; contentType: string; data: Readable };

type Limits = { maxBodyBytes: number; maxFieldBytes?: number; maxFields?: number; maxFiles?: number };

/**
 * Read a multipart body: text fields go to `onField`, each file part to `onFile` in order, one at
 * a time (the next part waits, with back-pressure, until the previous handler is done). `onFile`
 * must read or drain `part.data`. Throws MalformedMultipartError or BodyTooLargeError; whatever a
 * handler stored before that is the caller's to delete.
 */
export async function readMultipart(
  request: Request,
  handlers: { onField: (name: string, value: string) => void; onFile: (part: FilePart) => Promise<void> },
  limits: Limits,
) {
  // A declared length over the cap is refused before a byte is read; a chunked body is counted below.
  if (Number(request.headers.get("Content-Length") ?? 0) > limits.maxBodyBytes) throw new BodyTooLargeError(limits.maxBodyBytes);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": request.headers.get("Content-Type") ?? "" },
      // Browsers send UTF-8 file names as raw bytes, not RFC 5987.
      defParamCharset: "utf8",
      limits: {
        fieldSize: limits.maxFieldBytes ?? 64 * 1024,
        fields: limits.maxFields ?? 50,
        files: limits.maxFiles ?? 5,
        parts: (limits.maxFields ?? 50) + (limits.maxFiles ?? 5),
        headerPairs: 20,
      },
    });
  } catch (error) {
    throw new MalformedMultipartError(
      error instanceof Error && /boundary/i.test(error.message) ? "no multipart boundary" : "not multipart/form-data",
    );
  }
  if (!request.body) throw new MalformedMultipartError("empty body");

  let failure: Error | null = null;
  const fail = (error: Error) => {
    failure ??= error;
    parser.destroy(failure);
  };
  let queue = Promise.resolve();
  parser.on("field", (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) fail(new MalformedMultipartError(`the field ${name} is too long`));
    else handlers.onField(name, value);
  });
  parser.on("file", (field, data, info) => {
    // Errors reach the handler through its reads; this keeps a queued part's error from crashing the process.
    data.on("error", () => {});
    queue = queue.then(async () => {
      if (failure) return void data.resume();
      await handlers.onFile({ field: field ?? "", fileName: decodeFileName(info.filename ?? ""), contentType: info.mimeType, data });
    });
    queue.catch((error: Error) => fail(error));
  });
  for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
    parser.on(event, () => fail(new MalformedMultipartError("too many parts")));
  }

  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > limits.maxBodyBytes) return done(new BodyTooLargeError(limits.maxBodyBytes));
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(request.body as unknown as WebReadableStream), counter, parser as unknown as Writable);
    await queue;
  } catch (error) {
    await queue.catch(() => {});
    const cause = failure ?? error;
    if (cause instanceof MalformedMultipartError || cause instanceof BodyTooLargeError) throw cause;
    // busboy's own complaints ("Unexpected end of form", "Malformed part header") are the client's.
    if (cause instanceof Error && !(cause as NodeJS.ErrnoException).code && /form|part|header|boundary/i.test(cause.message)) {
      // Part headers may not hold control characters (other than tab), which a file's name can.
      const detail = /header/i.test(cause.message)
        ? "a part header is malformed; if the file's name holds unusual characters, rename the file"
        : cause.message.toLowerCase();
      throw new MalformedMultipartError(detail);
    }
    throw cause;
  }
  if (failure) throw failure;
}

/**
 * Browsers escape `"`, CR and LF in multipart file names as %22, %0D and %0A (HTML's form
 * encoding), and some clients backslash-escape quotes; this undoes exactly that, nothing more.
 */
export function decodeFileName(raw: string) {
  return raw
    .replace(/\\(["\\])/g, "$1")
    .replace(/%22/g, '"')
    .replace(/%0[da]/gi, "");
}
