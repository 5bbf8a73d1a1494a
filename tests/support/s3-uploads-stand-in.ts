import http from "node:http";
import type { AddressInfo } from "node:net";
import { startS3StandIn } from "./s3-stand-in";

type Upload = { key: string; uploadId: string; initiated: Date };

/**
 * The S3 stand-in (s3rver) behind a small HTTP front that adds what s3rver lacks and S3 has:
 * ListMultipartUploads and AbortMultipartUpload. It watches CreateMultipartUpload and
 * CompleteMultipartUpload pass through to know which uploads are open; everything else is
 * forwarded untouched (signatures included: the Host header is kept).
 */
export async function startS3StandInWithUploads(bucket = "remarket-uploads-test") {
  const inner = await startS3StandIn(bucket);
  const target = new URL(inner.options.endpoint!);
  const uploads = new Map<string, Upload>();

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
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
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
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

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

function escapeXml(text: string) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
