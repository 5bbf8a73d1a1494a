import { Readable } from "node:stream";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getDb } from "~/db/client.server";
import { createTestTenant } from "../../../tests/support/factories";
import { startS3StandIn } from "../../../tests/support/s3-stand-in";
import { makeXlsx } from "../../../tests/support/zip";
import { processFileJob } from "./file-processing.server";
import { FILE_JOB, createUploadedFile, getFileDetail, getFileReport, newStorageKey } from "./files.server";
import { S3FileStorage } from "./storage-s3.server";
import { FileTooLargeError, setStorageForTests } from "./storage.server";

let standIn: Awaited<ReturnType<typeof startS3StandIn>>;
let storage: S3FileStorage;

async function keys() {
  const client = new S3Client({
    region: standIn.options.region,
    endpoint: standIn.options.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: standIn.options.bucket }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

async function* chunks(size: number, count: number) {
  for (let i = 0; i < count; i++) yield Buffer.alloc(size, 65 + (i % 26));
}

describe("S3-compatible storage (against the S3 stand-in on loopback)", () => {
  beforeAll(async () => {
    await getDb(); // opening PGlite costs seconds: not inside a test's time limit
    standIn = await startS3StandIn();
    storage = new S3FileStorage(standIn.options);
  });
  afterAll(async () => {
    setStorageForTests(undefined);
    await standIn.close();
  });

  test("a small file: write, size, read, delete", async () => {
    await storage.write("t/small.csv", Readable.from([Buffer.from("a,b\n1,2\n")]));
    expect(await storage.size("t/small.csv")).toBe(8);
    let text = "";
    for await (const chunk of await storage.read("t/small.csv")) text += chunk.toString();
    expect(text).toBe("a,b\n1,2\n");
    expect(await keys()).toContain("t/small.csv");
    await storage.delete("t/small.csv");
    expect(await storage.size("t/small.csv")).toBeNull();
    expect(storage.localPath()).toBeNull();
  });

  test("text chunks (a generated export) are stored as their UTF-8 bytes", async () => {
    const { bytes } = await storage.write("t/text.csv", Readable.from(["name,city\n", "Jürgen,Köln\n"]));
    expect(bytes).toBe(Buffer.byteLength("name,city\nJürgen,Köln\n"));
    let text = "";
    for await (const chunk of await storage.read("t/text.csv")) text += chunk.toString();
    expect(text).toBe("name,city\nJürgen,Köln\n");
  });

  test("a 20 MB file goes up in parts and is committed under its key only", async () => {
    const { bytes } = await storage.write("t/big.bin", Readable.from(chunks(1024 * 1024, 20)));
    expect(bytes).toBe(20 * 1024 * 1024);
    expect(await storage.size("t/big.bin")).toBe(20 * 1024 * 1024);
    expect((await keys()).filter((k) => k.startsWith("t/big.bin"))).toEqual(["t/big.bin"]);
  });

  test("past the limit nothing is stored, not even the temporary key", async () => {
    await expect(
      storage.write("t/too-big.bin", Readable.from(chunks(1024 * 1024, 12)), { maxBytes: 10 * 1024 * 1024 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    expect((await keys()).filter((k) => k.startsWith("t/too-big"))).toEqual([]);
  });

  test("processing reads from S3 (an .xlsx is copied to a temporary file for its zip reader)", async () => {
    setStorageForTests(storage);
    const { ctx } = await createTestTenant();
    const key = newStorageKey(ctx.tenantId, "xlsx");
    const xlsx = makeXlsx([
      {
        name: "S",
        rows: [
          ["a", "b"],
          [1, 2],
          [3, 4],
        ],
      },
    ]);
    const { bytes } = await storage.write(key, Readable.from([xlsx]));
    const { id } = await createUploadedFile(ctx, { name: "s3.xlsx", extension: "xlsx", size: bytes, domain: "other", storageKey: key });
    await processFileJob(
      {
        id: "00000000-0000-0000-0000-000000000000",
        tenantId: ctx.tenantId,
        type: FILE_JOB,
        payload: { fileId: id },
        attempts: 1,
        maxAttempts: 3,
      },
      { db: ctx.db, progress: async () => {}, signal: new AbortController().signal },
    );
    expect((await getFileDetail(ctx, id)).file.status).toBe("Ready");
    expect((await getFileReport(ctx, id)).report.sheets[0].rows).toBe(2);
    setStorageForTests(undefined);
  });
});
