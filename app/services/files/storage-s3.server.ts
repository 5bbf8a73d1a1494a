import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { FileTooLargeError, TEMPORARY_SUFFIX, assertSafeKey, type FileStorage } from "./storage.server";

export type S3Options = {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
};

/** S3 needs parts of at least 5 MiB (but the last); one part is buffered at a time. */
const PART_BYTES = 8 * 1024 * 1024;

/** Temporary objects live under their own prefix, so finding a crashed write's leftovers lists only them. */
const TEMPORARY_PREFIX = "tmp/";

/**
 * S3-compatible object storage. A write streams to a temporary key under tmp/ with a multipart
 * upload (one 8 MiB part in memory at a time), then is committed by a server-side copy to the
 * final key; on any failure the upload is aborted and the temporary object removed. A process
 * killed mid-write leaves an incomplete upload or a temporary object: removeTemporary finds both.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  async write(key: string, body: Readable | AsyncIterable<Uint8Array | string>, options: { maxBytes?: number } = {}) {
    assertSafeKey(key);
    const Bucket = this.options.bucket;
    const temp = `${TEMPORARY_PREFIX}${key}.part-${randomUUID()}`;
    let uploadId: string | undefined;
    const parts: { ETag: string; PartNumber: number }[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let bytes = 0;
    const flush = async () => {
      if (!uploadId) {
        const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket, Key: temp }));
        uploadId = created.UploadId!;
      }
      const PartNumber = parts.length + 1;
      const result = await this.client.send(
        new UploadPartCommand({ Bucket, Key: temp, UploadId: uploadId, PartNumber, Body: Buffer.concat(pending) }),
      );
      parts.push({ ETag: result.ETag!, PartNumber });
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
        // Readable.from(strings) yields text (the generated sample export): count and send its UTF-8 bytes.
        const buffer =
          typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        bytes += buffer.length;
        if (options.maxBytes !== undefined && bytes > options.maxBytes) throw new FileTooLargeError(options.maxBytes);
        pending.push(buffer);
        pendingBytes += buffer.length;
        if (pendingBytes >= PART_BYTES) await flush();
      }
      if (uploadId) {
        if (pendingBytes > 0) await flush();
        await this.client.send(
          new CompleteMultipartUploadCommand({ Bucket, Key: temp, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        );
        uploadId = undefined;
      } else {
        await this.client.send(new PutObjectCommand({ Bucket, Key: temp, Body: Buffer.concat(pending) }));
      }
      await this.client.send(
        new CopyObjectCommand({ Bucket, Key: key, CopySource: `${Bucket}/${temp.split("/").map(encodeURIComponent).join("/")}` }),
      );
      await this.client.send(new DeleteObjectCommand({ Bucket, Key: temp }));
      return { bytes };
    } catch (error) {
      if (uploadId) {
        await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key: temp, UploadId: uploadId })).catch(() => {});
      }
      await this.client.send(new DeleteObjectCommand({ Bucket, Key: temp })).catch(() => {});
      throw error;
    }
  }

  async read(key: string) {
    assertSafeKey(key);
    const result = await this.client.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: key }));
    const body = result.Body;
    if (!body) throw new Error(`No body for ${key}`);
    return body instanceof Readable ? body : Readable.fromWeb(body as unknown as WebReadableStream);
  }

  async size(key: string) {
    assertSafeKey(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: key }));
      return head.ContentLength ?? null;
    } catch {
      return null;
    }
  }

  async delete(key: string) {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: key }));
  }

  localPath() {
    return null;
  }

  async removeTemporary(olderThan: Date) {
    const Bucket = this.options.bucket;
    const ours = (key: string | undefined) => !!key && (key.startsWith(TEMPORARY_PREFIX) || TEMPORARY_SUFFIX.test(key));
    let removed = 0;
    // Incomplete multipart uploads cost storage until aborted, and list objects never shows them.
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client.send(
        new ListMultipartUploadsCommand({ Bucket, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
      );
      for (const upload of page.Uploads ?? []) {
        if (!ours(upload.Key) || !upload.UploadId || !upload.Initiated || upload.Initiated >= olderThan) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
        removed++;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    // Completed temporary objects whose copy to the final key never happened.
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket, Prefix: TEMPORARY_PREFIX, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (!ours(object.Key) || !object.LastModified || object.LastModified >= olderThan) continue;
        await this.client.send(new DeleteObjectCommand({ Bucket, Key: object.Key }));
        removed++;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return removed;
  }
}
