import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { CreateMultipartUploadCommand, ListObjectsV2Command, PutObjectCommand, S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { getEnv } from "~/env.server";
import { temporaryUploadMaxAgeMs } from "~/utils/http-limits.server";
import { startS3StandInWithUploads } from "../../../tests/support/s3-stand-in";
import { removeStaleUploads } from "../platform/housekeeping.server";
import { S3FileStorage } from "./storage-s3.server";
import { FileTooLargeError, LocalFileStorage } from "./storage.server";

// Issue 12 §5: `kill -9` during a 50 MB upload left a 21 MB `*.part-<uuid>` file for ever. Start-up
// and housekeeping remove temporary upload objects older than an hour, on local disk and on S3
// (where an interrupted write is an incomplete multipart upload, or a temporary object).

const HOUR = 3_600_000;
const UUID = "0f8fad5b-d9cb-4f9f-9b5c-8e5a5c1e4a11";

describe("local disk", () => {
  test("a crashed write's .part file older than the limit goes; a fresh one and finished files stay", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "uploads-"));
    const folder = path.join(root, "tenants", "t1", "files");
    mkdirSync(folder, { recursive: true });
    const old = path.join(folder, `a.csv.part-${UUID}`);
    const fresh = path.join(folder, `b.csv.part-${UUID.replace("0f", "1f")}`);
    const finished = path.join(folder, "c.csv");
    const lookalike = path.join(folder, "d.part-notes.csv");
    for (const file of [old, fresh, finished, lookalike]) writeFileSync(file, "a,b\n");
    const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
    for (const file of [old, finished, lookalike]) utimesSync(file, twoHoursAgo, twoHoursAgo);

    const removed = await removeStaleUploads(new LocalFileStorage(root), HOUR);
    expect(removed).toBe(1);
    expect(readdirSync(folder).sort()).toEqual(["b.csv.part-1f8fad5b-d9cb-4f9f-9b5c-8e5a5c1e4a11", "c.csv", "d.part-notes.csv"]);
  });

  test("a missing uploads folder is nothing to clean", async () => {
    expect(await new LocalFileStorage(path.join(tmpdir(), `absent-${Date.now()}`)).removeTemporary(new Date())).toBe(0);
  });

  test("the age limit outlasts the longest upload a live request may still be writing, and is at least an hour", () => {
    const env = getEnv();
    expect(temporaryUploadMaxAgeMs(env)).toBeGreaterThanOrEqual(HOUR);
    expect(temporaryUploadMaxAgeMs({ ...env, UPLOAD_MAX_BYTES: 1024 ** 3, UPLOAD_MIN_BYTES_PER_SECOND: 50_000 })).toBeGreaterThan(
      (1024 ** 3 / 50_000) * 1000,
    );
  });
});

describe("S3 (against the stand-in)", () => {
  let standIn: Awaited<ReturnType<typeof startS3StandInWithUploads>>;
  let storage: S3FileStorage;
  let client: S3Client;
  beforeAll(async () => {
    standIn = await startS3StandInWithUploads();
    storage = new S3FileStorage(standIn.options);
    client = new S3Client({
      region: standIn.options.region,
      endpoint: standIn.options.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
  });
  afterAll(() => standIn.close());
  const Bucket = () => standIn.options.bucket;
  const keys = async () => ((await client.send(new ListObjectsV2Command({ Bucket: Bucket() }))).Contents ?? []).map((o) => o.Key!).sort();

  test("a write goes through a temporary key under tmp/ and leaves nothing open", async () => {
    await storage.write("tenants/t1/files/done.csv", Readable.from([Buffer.alloc(9 * 1024 * 1024, "a")]));
    expect(await keys()).toEqual(["tenants/t1/files/done.csv"]);
    expect(standIn.openUploads()).toEqual([]);
  });

  test("a refused write aborts its multipart upload", async () => {
    const body = Readable.from([Buffer.alloc(9 * 1024 * 1024, "a"), Buffer.alloc(9 * 1024 * 1024, "b")]);
    await expect(storage.write("tenants/t1/files/big.csv", body, { maxBytes: 10 * 1024 * 1024 })).rejects.toBeInstanceOf(FileTooLargeError);
    expect(standIn.openUploads()).toEqual([]);
  });

  test("a crashed write's incomplete upload and temporary object are removed once old enough; a fresh one stays", async () => {
    // What a process killed mid-write leaves: an upload with a part and no completion, and a
    // temporary object whose copy to the final key never ran.
    const crashedKey = `tmp/tenants/t1/files/crashed.csv.part-${UUID}`;
    const created = await client.send(new CreateMultipartUploadCommand({ Bucket: Bucket(), Key: crashedKey }));
    await client.send(
      new UploadPartCommand({
        Bucket: Bucket(),
        Key: crashedKey,
        UploadId: created.UploadId,
        PartNumber: 1,
        Body: Buffer.alloc(5 * 1024 * 1024, "x"),
      }),
    );
    await client.send(new PutObjectCommand({ Bucket: Bucket(), Key: `tmp/tenants/t1/files/copied.csv.part-${UUID}`, Body: "a,b\n" }));
    expect(standIn.openUploads().map((u) => u.key)).toEqual([crashedKey]);

    // Not yet an hour old: kept (another instance may still be writing it).
    expect(await removeStaleUploads(storage, HOUR)).toBe(0);
    expect(standIn.openUploads()).toHaveLength(1);

    // An hour and a bit later.
    expect(await removeStaleUploads(storage, HOUR, new Date(Date.now() + HOUR + 60_000))).toBe(2);
    expect(standIn.openUploads()).toEqual([]);
    expect(await keys()).toEqual(["tenants/t1/files/done.csv"]);
  });
});
