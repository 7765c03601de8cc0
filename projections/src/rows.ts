import type Database from 'better-sqlite3';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ReadDb } from './schema.ts';

/**
 * The row writer projections write through: synchronous, typed against ReadDb, over better-sqlite3
 * statements prepared once per (operation, table, column set) and reused. Projections apply every
 * event of every command and of every rebuild, so this path builds no query objects and awaits
 * nothing: a batch of events runs as plain synchronous calls inside one transaction.
 *
 * Tables are named by their ReadDb name only; the writer maps them to physical tables (a rebuild's
 * shadow tables), so no projection ever writes a table name into SQL text.
 */
export type TableName = keyof ReadDb & string;
export type RowOf<T extends TableName> = Selectable<ReadDb[T]>;
export type NewRow<T extends TableName> = Insertable<ReadDb[T]>;
export type RowChanges<T extends TableName> = Updateable<ReadDb[T]>;
export type ColumnOf<T extends TableName> = keyof RowOf<T> & string;
/** Columns holding a number (never null): the ones `add` may change. */
export type NumericColumn<T extends TableName> = { [K in ColumnOf<T>]: RowOf<T>[K] extends number ? K : never }[ColumnOf<T>];

/** Equality per column, or `{ lt: value }` for `column < value`. All conditions must hold. */
export type Where<T extends TableName> = { [K in ColumnOf<T>]?: RowOf<T>[K] | { lt: RowOf<T>[K] } };

export interface Update<T extends TableName> {
  /** Columns set to these values. */
  set?: RowChanges<T>;
  /** Numeric columns increased by these amounts (negative to decrease). */
  add?: { [K in NumericColumn<T>]?: number };
}

export interface Upsert<T extends TableName> {
  /** The columns of the unique key whose conflict this handles. */
  conflict: readonly ColumnOf<T>[];
  /** On conflict, these columns take the new row's values; with neither `set` nor `add`, the new row is dropped. */
  set?: readonly ColumnOf<T>[];
  /** On conflict, these numeric columns are increased by the new row's values. */
  add?: readonly NumericColumn<T>[];
}

type Value = string | number | bigint | Buffer | null;

export interface Rows {
  insert<T extends TableName>(table: T, row: NewRow<T>): void;
  /** INSERT … ON CONFLICT (conflict) DO UPDATE / DO NOTHING. */
  upsert<T extends TableName>(table: T, row: NewRow<T>, on: Upsert<T>): void;
  /** Returns the number of rows changed. */
  update<T extends TableName>(table: T, where: Where<T>, changes: Update<T>): number;
  /** Returns the number of rows deleted. */
  delete<T extends TableName>(table: T, where: Where<T>): number;
  /** The first row matching (in rowid order), with only these columns. */
  get<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C> | undefined;
  /** Every row matching, in rowid order, with only these columns. */
  all<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C>[];
}

/** The keys of a row literal, as its columns (for `Upsert.set`: "these columns, as in the new row"). */
export function columnsOf<R extends object>(row: R): (keyof R & string)[] {
  // Object.keys of a row literal gives exactly its (string) keys.
  return Object.keys(row) as (keyof R & string)[];
}

const id = (name: string) => `"${name.replaceAll('"', '""')}"`;

function isBound(value: unknown): value is Value {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || Buffer.isBuffer(value);
}

function bindable(table: string, column: string, value: unknown): Value {
  if (isBound(value)) return value;
  throw new TypeError(`${table}.${column}: ${typeof value} is not a column value`);
}

/**
 * Rows over one better-sqlite3 connection. `nameOf` maps a table's ReadDb name to the physical table
 * (identity for the live tables, the shadow's name during a rebuild). Statements are cached per
 * writer, so a shadow build's statements go away with its writer.
 */
export class RowWriter implements Rows {
  readonly #statements = new Map<string, Database.Statement>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly nameOf: (table: TableName) => string = (table) => table,
  ) {}

  #statement(key: string, sql: () => string): Database.Statement {
    let statement = this.#statements.get(key);
    if (!statement) {
      statement = this.sqlite.prepare(sql());
      this.#statements.set(key, statement);
    }
    return statement;
  }

  /** `WHERE …` text and its values; the cache key part describes the condition's shape. */
  #where(table: string, where: Record<string, unknown>): { key: string; text: string; values: Value[] } {
    let key = '';
    const terms: string[] = [];
    const values: Value[] = [];
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined) continue;
      if (typeof condition === 'object' && condition !== null && !Buffer.isBuffer(condition) && 'lt' in condition) {
        key += `${column}<,`;
        terms.push(`${id(column)} < ?`);
        values.push(bindable(table, column, condition.lt));
      } else if (condition === null) {
        key += `${column} null,`;
        terms.push(`${id(column)} IS NULL`);
      } else {
        key += `${column}=,`;
        terms.push(`${id(column)} = ?`);
        values.push(bindable(table, column, condition));
      }
    }
    if (terms.length === 0) throw new Error(`${table}: a change or read without a condition`);
    return { key, text: terms.join(' AND '), values };
  }

  /** The row's columns (those not undefined) and their values, in the row's key order. */
  #columns(table: TableName, row: object): { columns: string[]; values: Value[] } {
    const columns: string[] = [];
    const values: Value[] = [];
    for (const [column, value] of Object.entries(row)) {
      if (value === undefined) continue;
      columns.push(column);
      values.push(bindable(table, column, value));
    }
    return { columns, values };
  }

  #insertSql(table: TableName, columns: readonly string[]): string {
    return `INSERT INTO ${id(this.nameOf(table))} (${columns.map(id).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  }

  insert<T extends TableName>(table: T, row: NewRow<T>): void {
    const { columns, values } = this.#columns(table, row);
    this.#statement(`i ${table} ${columns.join(',')}`, () => this.#insertSql(table, columns)).run(values);
  }

  upsert<T extends TableName>(table: T, row: NewRow<T>, on: Upsert<T>): void {
    const { columns, values } = this.#columns(table, row);
    const key = `u ${table} ${columns.join(',')} ${on.conflict.join(',')} ${on.set?.join(',') ?? ''} ${on.add?.join(',') ?? ''}`;
    const statement = this.#statement(key, () => {
      const changes = [
        ...(on.set ?? []).map((c) => `${id(c)} = excluded.${id(c)}`),
        ...(on.add ?? []).map((c) => `${id(c)} = ${id(c)} + excluded.${id(c)}`),
      ];
      const action = changes.length > 0 ? `DO UPDATE SET ${changes.join(', ')}` : 'DO NOTHING';
      return `${this.#insertSql(table, columns)} ON CONFLICT (${on.conflict.map(id).join(', ')}) ${action}`;
    });
    statement.run(values);
  }

  update<T extends TableName>(table: T, where: Where<T>, changes: Update<T>): number {
    const set = (changes.set ?? {}) as Record<string, unknown>;
    const add = (changes.add ?? {}) as Record<string, number | undefined>;
    const setColumns = Object.keys(set).filter((c) => set[c] !== undefined);
    const addColumns = Object.keys(add).filter((c) => add[c] !== undefined);
    if (setColumns.length + addColumns.length === 0) return 0;
    const condition = this.#where(table, where);
    const key = `U ${table} ${setColumns.join(',')} +${addColumns.join(',')} ${condition.key}`;
    const statement = this.#statement(key, () => {
      const assignments = [...setColumns.map((c) => `${id(c)} = ?`), ...addColumns.map((c) => `${id(c)} = ${id(c)} + ?`)];
      return `UPDATE ${id(this.nameOf(table))} SET ${assignments.join(', ')} WHERE ${condition.text}`;
    });
    const values = [...setColumns.map((c) => bindable(table, c, set[c])), ...addColumns.map((c) => bindable(table, c, add[c])), ...condition.values];
    return statement.run(values).changes;
  }

  delete<T extends TableName>(table: T, where: Where<T>): number {
    const condition = this.#where(table, where);
    const statement = this.#statement(`D ${table} ${condition.key}`, () => `DELETE FROM ${id(this.nameOf(table))} WHERE ${condition.text}`);
    return statement.run(condition.values).changes;
  }

  #select<T extends TableName>(table: T, where: Where<T>, columns: readonly string[], limit: string): { statement: Database.Statement; values: Value[] } {
    const condition = this.#where(table, where);
    const statement = this.#statement(
      `S ${table} ${columns.join(',')} ${condition.key} ${limit}`,
      () => `SELECT ${columns.map(id).join(', ')} FROM ${id(this.nameOf(table))} WHERE ${condition.text} ORDER BY rowid${limit}`,
    );
    return { statement, values: condition.values };
  }

  get<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C> | undefined {
    const { statement, values } = this.#select(table, where, columns, ' LIMIT 1');
    // The columns asked for, of the table's row type: what the typed schema says the table holds.
    return statement.get(values) as Pick<RowOf<T>, C> | undefined;
  }

  all<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C>[] {
    const { statement, values } = this.#select(table, where, columns, '');
    return statement.all(values) as Pick<RowOf<T>, C>[];
  }
}
