/**
 * Snapshots hold a stream's decision state, personal data included: they are sealed like events,
 * with the stream's subject key (a user stream's user; any other stream: a server key), and bound
 * (GCM associated data) to the stream id, the revision, the snapshot version and the chain hash of
 * the event at that revision. A snapshot that does not open — erased subject, tampered row, a row
 * moved to another stream or revision, a log that changed under it, or a plain snapshot from before
 * sealing — is ignored, and the stream is folded from its events.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { streams } from '@kamai/contracts';
import type { Json, StreamSnapshot } from '@kamai/domain';
import type { ChainSource } from '../event-store/chain.ts';
import type { KeyStore } from './key-store.ts';
import { gcmOpen, gcmSeal } from './aead.ts';

const SERVER_KEY = 'snapshots';
const USER_STREAM_PREFIX = streams.user('');

interface SealedState {
  /** n: nonce, c: ciphertext; m: HMAC by the vouching key, when one is configured. */
  sealed: { n: string; c: string; m?: string };
}

function isSealedState(state: Json): state is SealedState & { [key: string]: Json } {
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return false;
  const sealed = state.sealed;
  return typeof sealed === 'object' && sealed !== null && !Array.isArray(sealed) && typeof sealed.n === 'string' && typeof sealed.c === 'string';
}

export type SnapshotVerdict = 'ok' | 'unsealed' | 'unopened';

export class SnapshotSealer {
  readonly #keys: KeyStore;
  readonly #chain: ChainSource | null;
  readonly #vouchKey: Buffer | null;

  /** `signingKey`: LEDGER_SIGNING_KEY, from which the snapshots' HMAC key is derived (its own label, so no MAC of one kind passes for the other). */
  constructor(keys: KeyStore, chain: ChainSource | null, signingKey: Uint8Array | null = null) {
    this.#keys = keys;
    this.#chain = chain;
    this.#vouchKey = signingKey ? createHmac('sha256', signingKey).update('kamai-snapshot-mac').digest() : null;
  }

  #mac(aad: Buffer, n: string, c: string): string | null {
    return this.#vouchKey ? createHmac('sha256', this.#vouchKey).update(aad).update(`\n${n}\n${c}`).digest('base64url') : null;
  }

  #key(streamId: string, create: boolean): Buffer | null {
    if (!streamId.startsWith(USER_STREAM_PREFIX)) return this.#keys.systemKey(SERVER_KEY);
    const subject = streamId.slice(USER_STREAM_PREFIX.length);
    return create ? this.#keys.keyFor(subject) : this.#keys.existingKey(subject);
  }

  /** The chain hash of the stream's event at `revision` ('' when the store keeps no chain). */
  async #hashAt(streamId: string, revision: number): Promise<string | null> {
    const chain = this.#chain;
    if (!chain) return '';
    const position = await chain.positionOf(streamId, revision);
    if (position === null) return null;
    const [event] = await chain.readChain(position - 1, 1);
    return event?.position === position ? (event.hash ?? '') : null;
  }

  #aad(streamId: string, snapshot: { revision: number; version: number }, hash: string): Buffer {
    return Buffer.from(JSON.stringify([streamId, snapshot.revision, snapshot.version, hash]));
  }

  async seal(streamId: string, snapshot: StreamSnapshot): Promise<StreamSnapshot> {
    const key = this.#key(streamId, true);
    const hash = await this.#hashAt(streamId, snapshot.revision);
    // Nothing to bind it to (erased subject, or no such event): keep a state that never opens.
    if (!key || hash === null) return { ...snapshot, state: null };
    const aad = this.#aad(streamId, snapshot, hash);
    const { nonce, body } = gcmSeal(key, JSON.stringify(snapshot.state), aad);
    const n = nonce.toString('base64url');
    const c = body.toString('base64url');
    const m = this.#mac(aad, n, c);
    return { ...snapshot, state: { sealed: { n, c, ...(m && { m }) } } };
  }

  /** The snapshot's plain state, or null (fold from the events) when it does not open or verify. */
  async open(streamId: string, snapshot: StreamSnapshot | null): Promise<StreamSnapshot | null> {
    if (!snapshot) return null;
    const state = await this.#openState(streamId, snapshot);
    return state === undefined ? null : { ...snapshot, state };
  }

  /** Whether a stored snapshot opens and verifies (verify-ledger). */
  async verdict(streamId: string, snapshot: StreamSnapshot): Promise<SnapshotVerdict> {
    if (!isSealedState(snapshot.state)) return 'unsealed';
    return (await this.#openState(streamId, snapshot)) === undefined ? 'unopened' : 'ok';
  }

  /**
   * The plain state of a snapshot that opens, vouched for or not: verify-ledger folds its stream and
   * compares, since a resealed snapshot the command handler now ignores is still evidence of a forgery.
   */
  async openForAudit(streamId: string, snapshot: StreamSnapshot): Promise<Json | undefined> {
    return this.#openState(streamId, snapshot, false);
  }

  async #openState(streamId: string, snapshot: StreamSnapshot, vouched = true): Promise<Json | undefined> {
    if (!isSealedState(snapshot.state)) return undefined;
    const key = this.#key(streamId, false);
    if (!key) return undefined;
    const hash = await this.#hashAt(streamId, snapshot.revision);
    if (hash === null) return undefined;
    try {
      const { n, c, m } = snapshot.state.sealed;
      const aad = this.#aad(streamId, snapshot, hash);
      const expected = vouched ? this.#mac(aad, n, c) : null;
      // With the vouching key, a snapshot it did not vouch for (resealed from DATA_DIR alone, or kept before the key) is not trusted.
      if (expected !== null && !(typeof m === 'string' && m.length === expected.length && timingSafeEqual(Buffer.from(m), Buffer.from(expected)))) return undefined;
      const text = gcmOpen(key, Buffer.from(n, 'base64url'), Buffer.from(c, 'base64url'), aad).toString('utf8');
      return JSON.parse(text) as Json;
    } catch {
      return undefined;
    }
  }
}
