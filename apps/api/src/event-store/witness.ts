/**
 * The ledger witness (LEDGER_WITNESS): every signed checkpoint is also kept outside DATA_DIR, where
 * someone who rewrote events.sqlite cannot also rewrite it, so a restarted server and verify-ledger
 * know the newest head ever signed. Two kinds: an append-only file of JSON lines (make it append-only
 * for the app's user, e.g. `chattr +a`, on another disk or a mount the data's administrators cannot
 * write), or one object per checkpoint in S3 (a bucket with Object Lock, or a policy without
 * DeleteObject and overwrite for the app's credentials).
 */
import { open, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, ListObjectsCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Config } from '../config.ts';
import type { LedgerCheckpoint, LedgerWitness } from './chain.ts';

function parseCheckpoint(text: string): LedgerCheckpoint | null {
  try {
    const value = JSON.parse(text) as Partial<LedgerCheckpoint>;
    return typeof value.position === 'number' && typeof value.hash === 'string' && typeof value.mac === 'string' && typeof value.recordedAt === 'string'
      ? { position: value.position, hash: value.hash, mac: value.mac, recordedAt: value.recordedAt }
      : null;
  } catch {
    return null;
  }
}

const line = (c: LedgerCheckpoint) => JSON.stringify({ position: c.position, hash: c.hash, mac: c.mac, recordedAt: c.recordedAt });

/** How much of the file's end is read for its newest line: lines are about 200 bytes. */
const TAIL_BYTES = 16 * 1024;

/** One JSON line per checkpoint, appended and synced; the newest is read from the file's end only. */
export class FileWitness implements LedgerWitness {
  constructor(readonly path: string) {}

  get name(): string {
    return this.path;
  }

  async latest(): Promise<LedgerCheckpoint | null> {
    let file;
    try {
      file = await open(this.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const { size } = await file.stat();
      const length = Math.min(size, TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      await file.read(buffer, 0, length, size - length);
      // The highest position among the last lines: a line cut short by a crash is skipped.
      let newest: LedgerCheckpoint | null = null;
      for (const text of buffer.toString('utf8').split('\n')) {
        const checkpoint = parseCheckpoint(text);
        if (checkpoint && (!newest || checkpoint.position > newest.position)) newest = checkpoint;
      }
      return newest;
    } finally {
      await file.close();
    }
  }

  async record(checkpoint: LedgerCheckpoint): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const file = await open(this.path, 'a');
    try {
      // A leading newline ends a line a crash may have cut short, so this one parses on its own.
      await file.write(`\n${line(checkpoint)}\n`);
      await file.datasync();
    } finally {
      await file.close();
    }
  }
}

/** Keys sort newest first (S3 lists in key order), so the newest checkpoint is one short listing away. */
const POSITION_CEILING = 999_999_999_999_999;
const keyOf = (prefix: string, position: number) => `${prefix}${String(POSITION_CEILING - position).padStart(15, '0')}.json`;

export interface S3WitnessOptions {
  bucket: string;
  /** Key prefix, e.g. `ledger-witness/`. */
  prefix: string;
  region: string;
  endpoint?: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

/** One object per checkpoint, written once (If-None-Match), under a prefix of a bucket. */
export class S3Witness implements LedgerWitness {
  readonly #client: S3Client;
  readonly #options: S3WitnessOptions;

  constructor(options: S3WitnessOptions) {
    this.#options = options;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  get name(): string {
    return `s3://${this.#options.bucket}/${this.#options.prefix}`;
  }

  async latest(): Promise<LedgerCheckpoint | null> {
    // ListObjects (v1): s3rver answers a truncated V2 listing with an internal error; S3 and MinIO answer both.
    const listed = await this.#client.send(new ListObjectsCommand({ Bucket: this.#options.bucket, Prefix: this.#options.prefix, MaxKeys: 1 }));
    const key = listed.Contents?.[0]?.Key;
    if (!key) return null;
    const object = await this.#client.send(new GetObjectCommand({ Bucket: this.#options.bucket, Key: key }));
    const checkpoint = parseCheckpoint((await object.Body?.transformToString('utf8')) ?? '');
    // A key that does not name its own checkpoint was not written by a signer.
    if (!checkpoint || keyOf(this.#options.prefix, checkpoint.position) !== key) throw new Error(`the ledger witness object ${key} is not a checkpoint`);
    return checkpoint;
  }

  async record(checkpoint: LedgerCheckpoint): Promise<void> {
    const key = keyOf(this.#options.prefix, checkpoint.position);
    // Already witnessed (by another process): the first one stays. The conditional PUT below is what
    // guarantees it on S3; this look first spares services that do not honour If-None-Match.
    if (await this.#exists(key)) return;
    try {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.#options.bucket,
          Key: key,
          Body: line(checkpoint),
          ContentType: 'application/json',
          IfNoneMatch: '*',
        }),
      );
    } catch (err) {
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 412) return;
      throw err;
    }
  }

  async #exists(key: string): Promise<boolean> {
    try {
      await this.#client.send(new HeadObjectCommand({ Bucket: this.#options.bucket, Key: key }));
      return true;
    } catch (err) {
      if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return false;
      throw err;
    }
  }

  close(): void {
    this.#client.destroy();
  }
}

/** The configured witness, or null. */
export function createLedgerWitness(config: Pick<Config, 'ledgerWitness' | 's3'>): LedgerWitness | null {
  const witness = config.ledgerWitness;
  if (!witness) return null;
  if (witness.kind === 'file') return new FileWitness(witness.path);
  const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = config.s3;
  return new S3Witness({ bucket: witness.bucket, prefix: witness.prefix, region, accessKeyId, secretAccessKey, forcePathStyle, ...(endpoint && { endpoint }) });
}
