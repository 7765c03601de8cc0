import { DiskStorage } from './disk.ts';
import type { ObjectStorage } from './port.ts';
import { S3Storage } from './s3.ts';

export * from './port.ts';
export { MAX_UPLOAD_BYTES, reencodeImage, sniffImageType, type ImageType } from './image.ts';
export { DiskStorage, DISK_PUT_PATH, type DiskStorageOptions } from './disk.ts';
export { S3Storage, type S3StorageOptions } from './s3.ts';
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
      return new S3Storage(options);
    }
    default: {
      const never: never = config;
      throw new Error(`Unknown object storage kind: ${JSON.stringify(never)}`);
    }
  }
}
