import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";
import type { S3Options } from "~/services/files/storage-s3.server";

/**
 * A stand-in for Amazon S3: s3rver, an S3-compatible server, on a loopback port with a
 * throw-away directory. Tests point S3FileStorage at it exactly as production points at S3.
 */
export async function startS3StandIn(bucket = "remarket-test") {
  const directory = mkdtempSync(path.join(tmpdir(), "s3-stand-in-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const options: S3Options = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  return { options, directory, close: () => server.close() as Promise<void> };
}
