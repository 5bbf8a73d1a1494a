// Plain JavaScript so both the tests and scripts/cluster.js (run by node, no build step) can start it.
import { mkdtempSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";

/** @typedef {import("../../app/services/files/storage-s3.server").S3Options} S3Options */

/**
 * A stand-in for Amazon S3: s3rver, an S3-compatible server, on a loopback port with a
 * throw-away directory (or the given one). Tests point S3FileStorage at it exactly as production
 * points at S3.
 */
export async function startS3StandIn(bucket = "remarket-test", directory = mkdtempSync(path.join(tmpdir(), "s3-stand-in-"))) {
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = /** @type {{ port: number }} */ (await server.run());
  /** @type {S3Options} */
  const options = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  return { options, directory, close: () => /** @type {Promise<void>} */ (server.close()) };
}

/** @typedef {{ key: string; uploadId: string; initiated: Date }} Upload */

/**
 * The S3 stand-in (s3rver) behind a small HTTP front that adds what s3rver lacks and S3 has:
 * ListMultipartUploads and AbortMultipartUpload. It watches CreateMultipartUpload and
 * CompleteMultipartUpload pass through to know which uploads are open; everything else is
 * forwarded untouched (signatures included: the Host header is kept).
 */
export async function startS3StandInWithUploads(
  bucket = "remarket-uploads-test",
  directory = mkdtempSync(path.join(tmpdir(), "s3-stand-in-")),
) {
  const inner = await startS3StandIn(bucket, directory);
  const target = new URL(/** @type {string} */ (inner.options.endpoint));
  /** @type {Map<string, Upload>} */
  const uploads = new Map();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const [, , ...rest] = url.pathname.split("/");
    const key = decodeURIComponent(rest.join("/"));
    if (req.method === "GET" && url.searchParams.has("uploads") && !key) {
      const prefix = url.searchParams.get("prefix") ?? "";
      const listed = [...uploads.values()].filter((u) => u.key.startsWith(prefix));
      res.writeHead(200, { "Content-Type": "application/xml" });
      res.end(
        `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
          `<Bucket>${bucket}</Bucket><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
          listed
            .map(
              (u) =>
                `<Upload><Key>${escapeXml(u.key)}</Key><UploadId>${u.uploadId}</UploadId><Initiated>${u.initiated.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
            )
            .join("") +
          `</ListMultipartUploadsResult>`,
      );
      return;
    }
    const uploadId = url.searchParams.get("uploadId");
    if (req.method === "DELETE" && uploadId) {
      uploads.delete(uploadId);
      req.resume();
      res.writeHead(204).end();
      return;
    }
    const forwarded = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        /** @type {Buffer[]} */
        const chunks = [];
        answer.on("data", (/** @type {Buffer} */ chunk) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          if (req.method === "POST" && url.searchParams.has("uploads") && answer.statusCode === 200) {
            const id = body.toString("utf8").match(/<UploadId>([^<]+)<\/UploadId>/)?.[1];
            if (id) uploads.set(id, { key, uploadId: id, initiated: new Date() });
          }
          if (req.method === "POST" && uploadId && answer.statusCode === 200) uploads.delete(uploadId);
          res.writeHead(answer.statusCode ?? 500, answer.headers);
          res.end(body);
        });
      },
    );
    forwarded.on("error", (error) => res.destroy(error));
    req.pipe(forwarded);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());

  return {
    options: { ...inner.options, endpoint: `http://127.0.0.1:${port}` },
    /** The multipart uploads begun and neither completed nor aborted. */
    openUploads: () => [...uploads.values()],
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await inner.close();
    },
  };
}

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
