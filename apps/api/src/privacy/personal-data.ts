import { createHmac } from 'node:crypto';
import { streams } from '@kamai/contracts';
import { type KeyStore, SqliteKeyStore } from './key-store.ts';
import { PostgresKeyStore } from './postgres-key-store.ts';
import { PersonalDataSealer, type UnreadableReport } from './sealing.ts';

/** What the routes use of the personal-data keys (AppDeps.personalData). */
export interface PersonalData {
  /**
   * Forgets a person: deletes their data key in every process sharing the key store, so their
   * sealed fields read as ERASED from now on (the log itself never changes).
   */
  erase(userId: string): Promise<void>;
  /** The stream that reserves a mobile number: named by a keyed HMAC of it, never the number. */
  mobileStreamId(mobile: string): string;
  /** The stream a mobile number was reserved on before stream names were hashed (legacy stores). */
  legacyMobileStreamId(mobile: string): string;
  /** A PAN's payee for tax (docs/tax.md): named by a keyed HMAC of the normalised PAN, never the PAN. */
  panPayeeStreamId(pan: string): string;
}

/** Where a thread or another process finds the same keys: the key store's file and its KEK. */
export interface KeyStoreLocation {
  keysFile: string;
  kek: Uint8Array;
  /** With EVENT_STORE=postgres: the keys are in this database, shared by every node (keysFile unused). */
  databaseUrl?: string;
}

export interface OpenPersonalData extends PersonalData {
  readonly keys: KeyStore;
  readonly sealer: PersonalDataSealer;
  readonly location: KeyStoreLocation;
  close(): void;
}

/** The system key behind mobile-number stream names. */
const MOBILE_HMAC_KEY = 'mobile-hmac';
/** The system key behind a PAN's payee stream name (its own, so a PAN and a number never share a digest). */
const PAN_HMAC_KEY = 'pan-hmac';
/** 16 letters standing for the 16 hex digits: a stream name with no digit can never hold a phone number. */
const LETTERS = 'abcdefghijklmnop';

function letters(digest: Buffer): string {
  let out = '';
  for (const byte of digest) out += LETTERS[byte >> 4]! + LETTERS[byte & 15]!;
  return out;
}

/**
 * Opens the key store at a known location (threads, other processes); its sealer reports an event
 * whose blob does not open to `report` (open.ts's openPersonalData: the alert).
 */
export function personalDataAt(location: KeyStoreLocation, report: UnreadableReport): OpenPersonalData {
  const kek = Buffer.from(location.kek);
  const keys: KeyStore = location.databaseUrl ? new PostgresKeyStore(location.databaseUrl, kek) : new SqliteKeyStore(location.keysFile, kek);
  const sealer = new PersonalDataSealer(keys, report);
  let mobileKey: Buffer | null = null;
  let panKey: Buffer | null = null;
  return {
    keys,
    sealer,
    location: { keysFile: location.keysFile, kek, ...(location.databaseUrl !== undefined && { databaseUrl: location.databaseUrl }) },
    async erase(userId) {
      keys.erase(userId);
    },
    mobileStreamId(mobile) {
      mobileKey ??= keys.systemKey(MOBILE_HMAC_KEY);
      return streams.mobile(letters(createHmac('sha256', mobileKey).update(mobile).digest()));
    },
    legacyMobileStreamId(mobile) {
      return streams.mobile(mobile);
    },
    panPayeeStreamId(pan) {
      panKey ??= keys.systemKey(PAN_HMAC_KEY);
      return streams.taxPayee(letters(createHmac('sha256', panKey).update(pan.replace(/\s+/g, '').toUpperCase()).digest()));
    },
    close() {
      keys.close();
    },
  };
}
