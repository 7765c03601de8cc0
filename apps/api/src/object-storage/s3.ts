import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectInfo, ObjectKey, ObjectStorage, SignedUpload, StoredObject } from './port.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For MinIO, s3rver or another S3-compatible service; omit for AWS. */
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `bucket` in the path instead of the host name, as MinIO and s3rver need. */
  forcePathStyle: boolean;
  /**
   * Where browsers reach the service, when not where this server does (in docker-compose the API
   * talks to `minio:9000`, the browser to `localhost:9000`). Upload URLs are signed for this one.
   */
  publicEndpoint?: string;
  /** Injected so tests can sign URLs in the past; defaults to the system clock. */
  now?: () => Date;
}

/**
 * Objects in an S3 bucket. The client PUTs straight to S3 with a presigned URL, which cannot limit
 * size or content, so `verifyUploadedImage` and the read route check the stored bytes instead.
 */
export class S3Storage implements ObjectStorage {
  readonly client: S3Client;
  /** Signs the URLs browsers use; the same client unless a public endpoint is set. */
  readonly presignClient: S3Client;
  readonly bucket: string;
  readonly #now: () => Date;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.#now = options.now ?? (() => new Date());
    const clientFor = (endpoint: string | undefined) => new S3Client({
      region: options.region,
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // By default the SDK bakes a CRC32 of the (empty) presign-time body into a presigned PUT, which
      // S3 then rejects for the real file; checksums only where the API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.client = clientFor(options.endpoint);
    this.presignClient = options.publicEndpoint ? clientFor(options.publicEndpoint) : this.client;
  }

  async createUpload(key: ObjectKey, options: { expiresInSeconds: number }): Promise<SignedUpload> {
    // Content type is left unsigned: the client sends the file's own, and reads sniff the bytes anyway.
    const uploadURL = await getSignedUrl(this.presignClient, new PutObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: options.expiresInSeconds,
      signingDate: this.#now(),
    });
    return { uploadURL, method: 'PUT' };
  }

  async stat(key: ObjectKey): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isStatus(err, 404)) return null;
      throw err;
    }
  }

  async readHead(key: ObjectKey, length: number): Promise<Uint8Array | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${length - 1}` }),
      );
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      // A server that ignores Range sends everything; keep only what was asked for.
      return bytes.subarray(0, length);
    } catch (err) {
      if (isStatus(err, 404)) return null;
      // An empty object has no byte 0, so S3 answers 416 to any range.
      if (isStatus(err, 416)) return new Uint8Array();
      throw err;
    }
  }

  async read(key: ObjectKey): Promise<StoredObject | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!object.Body) return null;
      return { body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>, size: object.ContentLength ?? 0 };
    } catch (err) {
      if (isStatus(err, 404)) return null;
      throw err;
    }
  }

  async delete(key: ObjectKey): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async put(key: ObjectKey, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }
}

function isStatus(err: unknown, status: number): boolean {
  return err instanceof S3ServiceException && err.$metadata.httpStatusCode === status;
}
