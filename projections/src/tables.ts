import { type Kysely, sql } from 'kysely';
import type { Projection } from './projection.ts';
import type { Rows } from './rows.ts';
import type { ReadDb } from './schema.ts';

type Db = Kysely<ReadDb>;

async function tableExists(db: Db, name: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${name}`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/** The CREATE INDEX of one of a table's indexes, named after its physical table (so a shadow's never collide with the live one's). */
export function indexSql(physical: string, index: string, columns: string): string {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return `CREATE INDEX ${quote(`${physical}__${index}`)} ON ${quote(physical)} (${columns})`;
}

/**
 * Creates the projection's tables under the names `nameOf` gives them, with their indexes unless
 * `withoutIndexes` (a build creates them after its catch-up: see rebuild.ts).
 */
export async function createTables(db: Db, projection: Projection, nameOf: (table: string) => string, options: { withoutIndexes?: boolean } = {}): Promise<void> {
  for (const [table, spec] of Object.entries(projection.tables)) {
    const physical = nameOf(table);
    await sql`CREATE TABLE ${sql.table(physical)} (${sql.raw(spec.columns)})`.execute(db);
    if (options.withoutIndexes) continue;
    for (const [index, columns] of Object.entries(spec.indexes ?? {})) await sql.raw(indexSql(physical, index, columns)).execute(db);
  }
}

/**
 * Creates, empty, each table of these projections that does not exist yet. A projection whose tables
 * are all new gets a checkpoint at zero with its version: empty tables are that version's rows of an
 * empty history (the runner builds it aside if the store is not empty).
 */
export async function ensureTables(db: Db, rows: Rows, projections: readonly Projection[]): Promise<void> {
  for (const projection of projections) {
    let created = 0;
    for (const table of Object.keys(projection.tables)) {
      if (await tableExists(db, table)) continue;
      await createTables(db, { ...projection, tables: { [table]: projection.tables[table]! } }, (t) => t);
      created += 1;
    }
    const hasCheckpoint = await db.selectFrom('checkpoints').select('name').where('name', '=', projection.name).executeTakeFirst();
    if (created === Object.keys(projection.tables).length && !hasCheckpoint) writeCheckpoint(rows, projection.name, projection.version, 0);
  }
}

export interface Checkpoint {
  name: string;
  /** The projection version whose rows the tables hold. */
  version: number;
  /** Global position of the last event applied. */
  position: number;
  updatedAt: string;
}

export async function readCheckpoints(db: Db): Promise<Map<string, Checkpoint>> {
  const rows = await db.selectFrom('checkpoints').select(['name', 'version', 'position', 'updated_at']).execute();
  return new Map(rows.map((r) => [r.name, { name: r.name, version: r.version, position: r.position, updatedAt: r.updated_at }]));
}

/** A projection's checkpoint position (0 when it has none). */
export async function readCheckpoint(db: Db, name: string): Promise<number> {
  const row = await db.selectFrom('checkpoints').select('position').where('name', '=', name).executeTakeFirst();
  return row?.position ?? 0;
}

/** Moves a projection's checkpoint, inside the transaction of `rows`. */
export function writeCheckpoint(rows: Rows, name: string, version: number, position: number): void {
  rows.upsert('checkpoints', { name, version, position, updated_at: new Date().toISOString() }, { conflict: ['name'], set: ['version', 'position', 'updated_at'] });
}

/** Where a read model was parked: the event it could not apply, and why. */
export interface Parked {
  name: string;
  version: number;
  position: number;
  eventType: string;
  error: string;
  parkedAt: string;
}

export async function readParked(db: Db): Promise<Map<string, Parked>> {
  const rows = await db.selectFrom('parked_read_models').selectAll().execute();
  return new Map(
    rows.map((r) => [r.name, { name: r.name, version: r.version, position: r.position, eventType: r.event_type, error: r.error, parkedAt: r.parked_at }]),
  );
}

/** Whether this version of a projection is parked, as the transaction of `rows` sees it. */
export function isParkedIn(rows: Rows, projection: Pick<Projection, 'name' | 'version'>): boolean {
  return rows.get('parked_read_models', { name: projection.name, version: projection.version }, ['name']) !== undefined;
}

/**
 * Every projection's checkpoint, and which are parked (by name, at their version), as the
 * transaction of `rows` sees them: two reads for a whole batch instead of two per projection.
 */
export function bookkeepingIn(rows: Rows): { checkpoints: Map<string, { version: number; position: number }>; parked: Map<string, number> } {
  const checkpoints = new Map(rows.all('checkpoints', {}, ['name', 'version', 'position']).map((row) => [row.name, row]));
  const parked = new Map(rows.all('parked_read_models', {}, ['name', 'version']).map((row) => [row.name, row.version]));
  return { checkpoints, parked };
}

/** Parks a projection at the event it could not apply, inside the transaction of `rows`. */
export function writeParked(rows: Rows, parked: Omit<Parked, 'parkedAt'>): void {
  rows.upsert(
    'parked_read_models',
    { name: parked.name, version: parked.version, position: parked.position, event_type: parked.eventType, error: parked.error, parked_at: new Date().toISOString() },
    { conflict: ['name'], set: ['version', 'position', 'event_type', 'error', 'parked_at'] },
  );
}
