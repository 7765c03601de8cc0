import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('production defaults', () => {
  it('refuses to start with the published example APP_SECRET', () => {
    expect(() => loadConfig({ APP_SECRET: 'replace-with-at-least-32-random-characters' })).toThrow(ConfigError);
    expect(() => loadConfig({ APP_SECRET: 'change-me-to-32-or-more-random-characters!!' })).toThrow(/published example/);
    expect(loadConfig({ APP_SECRET: 'f'.repeat(64) }).appSecret).toBe('f'.repeat(64));
  });

  it('reads trusted proxy hops, allowed origins and the registration limit', () => {
    const config = loadConfig({ TRUSTED_PROXIES: '2', ALLOWED_ORIGINS: 'https://App.kamai.in, https://admin.kamai.in', REGISTRATIONS_PER_HOUR: '5' });
    expect(config).toMatchObject({ trustedProxies: 2, trustProxy: true, allowedOrigins: ['https://app.kamai.in', 'https://admin.kamai.in'], registrationsPerHour: 5 });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxies).toBe(1);
    expect(loadConfig({}).trustedProxies).toBe(0);
    expect(() => loadConfig({ ALLOWED_ORIGINS: 'app.kamai.in' })).toThrow(ConfigError);
  });
});

describe('IFSC_DATASET', () => {
  it('is an absolute path when set, null when unset or empty', () => {
    expect(loadConfig({ IFSC_DATASET: 'data/IFSC.csv' }).ifscDataset).toMatch(/^\/.*\/data\/IFSC\.csv$/);
    expect(loadConfig({}).ifscDataset).toBeNull();
    expect(loadConfig({ IFSC_DATASET: '' }).ifscDataset).toBeNull();
  });
});

describe('LEDGER_WITNESS', () => {
  it('is a file outside DATA_DIR or an s3:// place; a file inside DATA_DIR is refused', () => {
    expect(loadConfig({ DATA_DIR: '/srv/kamai' }).ledgerWitness).toBeNull();
    expect(loadConfig({ DATA_DIR: '/srv/kamai', LEDGER_WITNESS: '/srv/witness/ledger.jsonl' }).ledgerWitness).toEqual({ kind: 'file', path: '/srv/witness/ledger.jsonl' });
    expect(() => loadConfig({ DATA_DIR: '/srv/kamai', LEDGER_WITNESS: '/srv/kamai/witness.jsonl' })).toThrow(/LEDGER_WITNESS.*must be outside DATA_DIR/);
    expect(loadConfig({ DATA_DIR: '/srv/kamai', LEDGER_WITNESS: '/srv/kamai-witness/ledger.jsonl' }).ledgerWitness).toMatchObject({ kind: 'file' });
    const s3 = { S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig({ ...s3, LEDGER_WITNESS: 's3://kamai-ledger/witness' }).ledgerWitness).toEqual({ kind: 's3', bucket: 'kamai-ledger', prefix: 'witness/' });
    expect(() => loadConfig({ LEDGER_WITNESS: 's3://kamai-ledger' })).toThrow(/needs S3_ACCESS_KEY_ID/);
  });
});

describe('DISK_RESERVE_MB', () => {
  it('is 256 MiB by default, in bytes, 0 allowed, and refuses anything but a whole number', () => {
    expect(loadConfig({}).diskReserveBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ DISK_RESERVE_MB: '0' }).diskReserveBytes).toBe(0);
    expect(loadConfig({ DISK_RESERVE_MB: '1024' }).diskReserveBytes).toBe(1024 * 1024 * 1024);
    expect(() => loadConfig({ DISK_RESERVE_MB: '1.5' })).toThrow(/DISK_RESERVE_MB="1.5": must be a whole number of MiB/);
    expect(() => loadConfig({ DISK_RESERVE_MB: '-1' })).toThrow(ConfigError);
  });
});

describe('EVENT_STORE', () => {
  it('is the embedded SQLite file by default; postgres takes its log from DATABASE_URL, which it requires', () => {
    expect(loadConfig({}).eventStore.kind).toBe('sqlite');
    expect(loadConfig({ EVENT_STORE: 'postgres', DATABASE_URL: 'postgres://kamai@db:5432/kamai' }).eventStore).toEqual({ kind: 'postgres', url: 'postgres://kamai@db:5432/kamai' });
    expect(() => loadConfig({ EVENT_STORE: 'postgres' })).toThrow(/DATABASE_URL is required when EVENT_STORE=postgres/);
    expect(() => loadConfig({ EVENT_STORE: 'postgres', DATABASE_URL: 'mysql://db/kamai' })).toThrow(/DATABASE_URL="mysql:\/\/db\/kamai": must be a postgres:\/\/ connection string/);
    expect(() => loadConfig({ EVENT_STORE: 'mongo' })).toThrow(/must be sqlite, kurrentdb or postgres/);
  });
});

describe('ERASURE_LIST', () => {
  it('is the path given, else erasures.jsonl beside a file witness, else in DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/srv/kamai', ERASURE_LIST: '/srv/keep/erasures.jsonl' }).erasureList).toBe('/srv/keep/erasures.jsonl');
    expect(loadConfig({ DATA_DIR: '/srv/kamai', LEDGER_WITNESS: '/srv/witness/ledger.jsonl' }).erasureList).toBe('/srv/witness/erasures.jsonl');
    expect(loadConfig({ DATA_DIR: '/srv/kamai' }).erasureList).toBe('/srv/kamai/erasures.jsonl');
  });
});
