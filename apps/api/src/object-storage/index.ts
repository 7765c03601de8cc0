import { DiskStorage } from './disk.ts';
import type { ObjectKey, ObjectStorage } from './port.ts';
import type { S3StorageOptions } from './s3.ts';

export * from './port.ts';
export { MAX_UPLOAD_BYTES, reencodeImage, sniffImageType, type ImageType } from './image.ts';
export { DiskStorage, DISK_PUT_PATH, type DiskStorageOptions } from './disk.ts';
export type { S3StorageOptions } from './s3.ts';
export { acceptUploadedImage, verifyUploadedImage, withAcceptedImages, type AcceptedImage } from './verify.ts';
export { objectRoutes, type ObjectRoutesDeps, type UploadAnswer } from './routes.ts';

export type ObjectStorageConfig =
  | { kind: 'disk'; root: string; secret: Uint8Array }
  | {
      kind: 's3';
      endpoint?: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: boolean;
      publicEndpoint?: string;
    };

/** The adapter the configuration names; disk is the default that needs no other server. */
export function createObjectStorage(config: ObjectStorageConfig): ObjectStorage {
  switch (config.kind) {
    case 'disk':
      return new DiskStorage({ root: config.root, secret: config.secret });
    case 's3': {
      const { kind: _kind, ...options } = config;
      return new LazyS3Storage(options);
    }
    default: {
      const never: never = config;
      throw new Error(`Unknown object storage kind: ${JSON.stringify(never)}`);
    }
  }
}

/**
 * S3Storage, loaded with its first use: the AWS SDK takes longer to load than the rest of the
 * server, and a start on the disk default (or a CLI command) should not pay for it.
 */
class LazyS3Storage implements ObjectStorage {
  readonly #options: S3StorageOptions;
  #storage: Promise<ObjectStorage> | undefined;

  constructor(options: S3StorageOptions) {
    this.#options = options;
  }

  #loaded(): Promise<ObjectStorage> {
    return (this.#storage ??= import('./s3.ts').then(({ S3Storage }) => new S3Storage(this.#options)));
  }

  async createUpload(key: ObjectKey, options: { expiresInSeconds: number }) {
    return (await this.#loaded()).createUpload(key, options);
  }

  async stat(key: ObjectKey) {
    return (await this.#loaded()).stat(key);
  }

  async readHead(key: ObjectKey, length: number) {
    return (await this.#loaded()).readHead(key, length);
  }

  async read(key: ObjectKey) {
    return (await this.#loaded()).read(key);
  }

  async delete(key: ObjectKey) {
    return (await this.#loaded()).delete(key);
  }

  async put(key: ObjectKey, bytes: Uint8Array, contentType: string) {
    return (await this.#loaded()).put(key, bytes, contentType);
  }
}
