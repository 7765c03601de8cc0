import type Database from 'better-sqlite3';
import { type SyncPostgres, ensureTables, openSyncPostgres } from '../event-store/postgres-sync.ts';
import { openWalFile } from '../sqlite-file.ts';

/**
 * Where an outbox keeps its rows: a SQLite file in DATA_DIR (one machine: every process on the
 * directory shares it), or PostgreSQL with the log (EVENT_STORE=postgres: every node shares it, so
 * a row is claimed, and sent, by one node of N). The outboxes write their statements once, in the
 * SQL both understand (`?` placeholders, `ON CONFLICT`, `RETURNING`); a claim is a conditional
 * UPDATE … RETURNING, which both make atomic (PostgreSQL re-checks the row's WHERE after a
 * concurrent update commits), so no statement needs a dialect of its own.
 */
export interface OutboxSql {
  readonly kind: 'sqlite' | 'postgres';
  /** Rows of one statement. */
  all<Row>(sql: string, ...params: unknown[]): Row[];
  /** One statement with no rows wanted. */
  run(sql: string, ...params: unknown[]): void;
  /** `work` in one write transaction (SQLite: taking the file's write lock first). */
  transaction<T>(work: () => T): T;
  close(): void;
}

/** Where an outbox lives: a file of DATA_DIR, or the shared database at this URL. */
export type OutboxPlace = { file: string } | { database: string };

class SqliteOutboxSql implements OutboxSql {
  readonly kind = 'sqlite';
  readonly #statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  #prepare(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  all<Row>(sql: string, ...params: unknown[]): Row[] {
    return this.#prepare(sql).all(...params) as Row[];
  }

  run(sql: string, ...params: unknown[]): void {
    const statement = this.#prepare(sql);
    if (statement.reader) statement.all(...params);
    else statement.run(...params);
  }

  transaction<T>(work: () => T): T {
    return this.db.transaction(work).immediate();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** `?` placeholders as PostgreSQL's `$1, $2, …` (the outboxes' statements hold no `?` in literals). */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

class PostgresOutboxSql implements OutboxSql {
  readonly kind = 'postgres';
  #depth = 0;

  constructor(
    readonly pg: SyncPostgres,
    readonly release: () => void,
  ) {}

  all<Row>(sql: string, ...params: unknown[]): Row[] {
    return this.pg.query<Row>(numbered(sql), params);
  }

  run(sql: string, ...params: unknown[]): void {
    this.pg.query(numbered(sql), params);
  }

  transaction<T>(work: () => T): T {
    // The process's one synchronous connection: a transaction inside one is part of it.
    if (this.#depth > 0) return work();
    this.#depth++;
    try {
      return this.pg.transaction(work);
    } finally {
      this.#depth--;
    }
  }

  close(): void {
    this.release();
  }
}

/** An open SQLite connection as an outbox's place (the unit tests' tables in memory). */
export function sqliteOutboxSql(db: Database.Database): OutboxSql {
  return new SqliteOutboxSql(db);
}

/**
 * Opens an outbox's place and creates its tables: `sqlite` for the file (with `pragmas`), `postgres`
 * for schema `kamai` (its tables named there as the outbox says). Times are milliseconds: `bigint`
 * would come back from node-postgres as text, so PostgreSQL's tables hold them as `double precision`,
 * exact for whole milliseconds for the next 285,000 years.
 */
export function openOutboxSql(place: OutboxPlace, ddl: { sqlite: string; postgres: string; pragmas?: string[] }): OutboxSql {
  if ('file' in place) {
    const db = openWalFile(place.file, 5000);
    try {
      for (const pragma of ddl.pragmas ?? []) db.pragma(pragma);
      db.exec(ddl.sqlite);
    } catch (err) {
      db.close();
      throw err;
    }
    return new SqliteOutboxSql(db);
  }
  const { pg, release } = openSyncPostgres(place.database);
  try {
    ensureTables(pg, ddl.postgres);
  } catch (err) {
    release();
    throw err;
  }
  return new PostgresOutboxSql(pg, release);
}
