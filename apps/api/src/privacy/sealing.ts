/**
 * Sealing personal fields of events (contracts' PERSONAL_FIELDS): before an event is stored, its
 * personal fields leave the payload and travel together as one AES-256-GCM blob in the event's
 * metadata, under the data key of the person they belong to. Reading puts them back, or, once that
 * person's key is erased, puts ERASED (ERASED_SHA256 for digests) in their place: deciders,
 * projections and rebuilds keep working on an erased person's events.
 *
 * The blob is bound (GCM associated data) to the event id, its type, the subject and the sealed
 * paths, so a blob copied onto another event does not open. A blob that does not open while its
 * subject's key is there (tampered bytes) is not an erasure: its fields read as UNREADABLE, the event
 * is reported (the sealer's UnreadableReport: unreadable-alert.ts counts it in
 * `kamai_sealed_unreadable_total` and logs it as an alert), and verify-ledger lists it. It never
 * throws: one bad event must not stop every reader.
 */
import { PERSONAL_FIELDS, type PersonalFields, erasedValue, notOpenedValue, streams, unreadableValue, valueAtPath as valueAt, withValueAtPath as withValueAt } from '@kamai/contracts';
import type { EventMetadata, Json, NewEvent, RecordedEvent } from '@kamai/domain';
import type { KeyStore } from './key-store.ts';
import { gcmOpen, gcmSeal } from './aead.ts';

/** The metadata entry holding an event's sealed personal fields. */
export const SEALED_KEY = 'personal';

interface SealedBlob {
  /** Format version. */
  v: 1;
  /** Whose key sealed it (a user id). */
  s: string;
  /** The paths sealed, in order (field names, never values). */
  p: string[];
  /** Nonce, base64url. */
  n: string;
  /** Ciphertext followed by the GCM tag, base64url. */
  c: string;
}

const USER_STREAM_PREFIX = streams.user('');

type JsonObject = { [key: string]: Json };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function subjectOf(fields: PersonalFields, streamId: string, data: JsonObject, metadata: EventMetadata | undefined): string | null {
  if (fields.subject === 'stream') return streamId.startsWith(USER_STREAM_PREFIX) ? streamId.slice(USER_STREAM_PREFIX.length) : null;
  const value = fields.subject === 'userId' ? data.userId : fields.subject === 'reservationId' ? data.reservationId : metadata?.actor;
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** A string JSON.stringify writes as it is between its quotes: ids, type names and field paths are. */
const VERBATIM_IN_JSON = /^[\w.:*[\]-]*$/;

/**
 * The associated data: `[eventId, type, subject, paths]` as JSON. Written by hand when every string
 * is one JSON writes verbatim (always, for ids, type names and paths), the same bytes: stringify of
 * this small array was about 0.7 µs of the 9 an opening costs.
 */
export function associatedData(eventId: string, type: string, subject: string, paths: readonly string[]): Buffer {
  const verbatim = VERBATIM_IN_JSON.test(eventId) && VERBATIM_IN_JSON.test(type) && VERBATIM_IN_JSON.test(subject) && paths.every((path) => VERBATIM_IN_JSON.test(path));
  if (!verbatim) return Buffer.from(JSON.stringify([eventId, type, subject, paths]));
  return Buffer.from(`["${eventId}","${type}","${subject}",${paths.length === 0 ? '[]' : `["${paths.join('","')}"]`}]`);
}

function isSealedBlob(value: unknown): value is SealedBlob {
  return (
    isObject(value) &&
    value.v === 1 &&
    typeof value.s === 'string' &&
    Array.isArray(value.p) &&
    value.p.every((p) => typeof p === 'string') &&
    typeof value.n === 'string' &&
    typeof value.c === 'string'
  );
}

/** The subject's key is gone: an erasure. */
const NO_KEY = Symbol('no key');
/** The key is there and the blob does not open: the stored bytes were changed. */
const UNREADABLE_BLOB = Symbol('unreadable');

/** Where a blob was found that does not open: the event's place and type, never its data. */
export type UnreadableEvent = Pick<RecordedEvent, 'id' | 'streamId' | 'position' | 'revision' | 'type'>;

/**
 * What a sealer does with an event whose blob does not open although its subject's key exists:
 * alertUnreadable (unreadable-alert.ts) in the process that serves /metrics; a thread hands the
 * event to that process instead (read-ahead-thread.ts, thread-entry.ts), and loads no logger.
 */
export type UnreadableReport = (event: UnreadableEvent) => void;

/** An UnreadableEvent of `event`, without the rest (a thread posts it). */
export function unreadableEvent({ id, streamId, position, revision, type }: UnreadableEvent): UnreadableEvent {
  return { id, streamId, position, revision, type };
}

/** The event without its blob in the metadata: a copy, or (owned) the event itself, its blob's entry undefined. */
function withoutBlob<E extends RecordedEvent>(event: E, owned: boolean): E {
  if (owned) {
    (event.metadata as Record<string, Json | undefined>)[SEALED_KEY] = undefined;
    return event;
  }
  const { [SEALED_KEY]: _sealed, ...metadata } = event.metadata;
  return { ...event, metadata };
}

/**
 * The event with each of `paths` set to `valueOf(path)` and no blob: one copy of the payload takes
 * every top-level field (a rebuild reads every sealed event); a nested path copies its branch, as
 * withValueAt (contracts' withValueAtPath) does. Owned: the payload itself, no copy.
 */
function withFields<E extends RecordedEvent>(event: E, paths: readonly string[], valueOf: (path: string) => Json, owned: boolean): E {
  let data = (owned ? event.data : { ...(event.data as JsonObject) }) as JsonObject;
  for (const path of paths) {
    const value = valueOf(path);
    if (path.includes('.')) data = withValueAt(data, path, value);
    else data[path] = value;
  }
  if (owned) {
    withoutBlob(event, true).data = data;
    return event;
  }
  const { [SEALED_KEY]: _sealed, ...metadata } = event.metadata;
  return { ...event, data, metadata };
}

export class PersonalDataSealer {
  readonly keys: KeyStore;
  readonly report: UnreadableReport;

  constructor(keys: KeyStore, report: UnreadableReport) {
    this.keys = keys;
    this.report = report;
  }

  /** The event as it is to be stored: its personal fields sealed under their subject's key. */
  seal<E extends NewEvent>(streamId: string, event: E): E {
    const fields = PERSONAL_FIELDS[event.type as keyof typeof PERSONAL_FIELDS];
    if (!fields || !isObject(event.data)) return event;
    if (event.metadata?.[SEALED_KEY] !== undefined) throw new Error(`event ${event.id}: metadata.${SEALED_KEY} is reserved for sealed personal data`);
    const present: string[] = [];
    const plain: JsonObject = {};
    for (const path of fields.paths) {
      const value = valueAt(event.data, path);
      if (value === undefined) continue;
      present.push(path);
      plain[path] = value;
    }
    if (present.length === 0) return event;
    const subject = subjectOf(fields, streamId, event.data, event.metadata);
    if (!subject) throw new Error(`event ${event.type} on ${streamId}: no data subject to seal its personal fields for`);
    let data: JsonObject = event.data;
    for (const path of present) data = withValueAt(data, path, undefined);
    const key = this.keys.keyFor(subject);
    if (!key) {
      // The person is already erased: what is written about them now is written erased.
      for (const path of present) data = withValueAt(data, path, erasedValue(path));
      return { ...event, data };
    }
    const { nonce, body } = gcmSeal(key, JSON.stringify(plain), associatedData(event.id, event.type, subject, present));
    const blob: SealedBlob = { v: 1, s: subject, p: present, n: nonce.toString('base64url'), c: body.toString('base64url') };
    return { ...event, data, metadata: { ...event.metadata, [SEALED_KEY]: blob as unknown as Json } };
  }

  /**
   * The stored event as its writer meant it: personal fields back in place, or erased placeholders.
   * `owned`: the caller holds the only reference to the event and its data and metadata (fresh from
   * the store's JSON, as a build's reader thread reads them): they are changed in place rather than
   * copied, and the blob's metadata entry is set undefined, which JSON leaves out (a delete made the
   * metadata slower to write as JSON). As JSON, the same event either way.
   */
  open<E extends RecordedEvent>(event: E, owned = false): E {
    const blob = event.metadata[SEALED_KEY];
    // An event without a blob was written before sealing (or holds no personal field): as stored.
    if (blob === undefined || !isObject(event.data)) return event;
    if (!isSealedBlob(blob)) return withoutBlob(event, owned);
    const plain = this.#decrypt(event, blob);
    if (plain === UNREADABLE_BLOB) this.report(event);
    const missing = plain === UNREADABLE_BLOB ? unreadableValue : erasedValue;
    // A field sealed as null (an appeal without a new image) opens as null: only an absent one is missing.
    return withFields(event, blob.p, (path) => (typeof plain === 'object' && Object.hasOwn(plain, path) ? (plain[path] ?? null) : missing(path)), owned);
  }

  /** The paths the stored event's blob seals (its field names are plain), none without a blob. */
  sealedPaths(event: RecordedEvent): readonly string[] {
    const blob = event.metadata[SEALED_KEY];
    return isSealedBlob(blob) ? blob.p : [];
  }

  /**
   * The stored event with its sealed fields left shut: each reads NOT_OPENED, no key is looked up
   * and nothing is decrypted. For a rebuild whose read models read none of them (Projection.opens).
   * `owned` as in open.
   */
  leaveSealed<E extends RecordedEvent>(event: E, owned = false): E {
    const blob = event.metadata[SEALED_KEY];
    if (blob === undefined || !isObject(event.data)) return event;
    if (!isSealedBlob(blob)) return withoutBlob(event, owned);
    return withFields(event, blob.p, notOpenedValue, owned);
  }

  /**
   * What reading the stored event finds: no sealed data (`plain`), its sealed fields (`open`), a
   * subject whose key is gone (`erased`), or a blob that does not open with the key there
   * (`unreadable`). verify-ledger asks it of every event; it neither counts nor logs.
   */
  verdict(event: RecordedEvent): 'plain' | 'open' | 'erased' | 'unreadable' {
    const blob = event.metadata[SEALED_KEY];
    if (blob === undefined || !isObject(event.data)) return 'plain';
    if (!isSealedBlob(blob)) return 'unreadable';
    const plain = this.#decrypt(event, blob);
    return plain === NO_KEY ? 'erased' : plain === UNREADABLE_BLOB ? 'unreadable' : 'open';
  }

  #decrypt(event: RecordedEvent, blob: SealedBlob): JsonObject | typeof NO_KEY | typeof UNREADABLE_BLOB {
    const key = this.keys.existingKey(blob.s);
    if (!key) return NO_KEY;
    try {
      const nonce = Buffer.from(blob.n, 'base64url');
      const text = gcmOpen(key, nonce, Buffer.from(blob.c, 'base64url'), associatedData(event.id, event.type, blob.s, blob.p)).toString('utf8');
      const parsed: unknown = JSON.parse(text);
      return isObject(parsed) ? parsed : UNREADABLE_BLOB;
    } catch {
      return UNREADABLE_BLOB;
    }
  }
}
