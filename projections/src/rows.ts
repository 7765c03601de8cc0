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
  /** Every row matching (every row of the table for `{}`), in rowid order, with only these columns. */
  all<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C>[];
}

/** The keys of a row literal, as its columns (for `Upsert.set`: "these columns, as in the new row"). */
export function columnsOf<R extends object>(row: R): (keyof R & string)[] {
  // Object.keys of a row literal gives exactly its (string) keys.
  return Object.keys(row) as (keyof R & string)[];
}

const id = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** How many shapes of each operation on a table a writer keeps checking rows against. */
const SHAPES_PER_TABLE = 4;

/** Puts the shape first among the table's, forgetting the oldest beyond SHAPES_PER_TABLE. */
function remember<S>(shapes: Map<string, S[]>, table: string, shape: S): void {
  const list = shapes.get(table);
  if (!list) shapes.set(table, [shape]);
  else if (list.unshift(shape) > SHAPES_PER_TABLE) list.pop();
}

/** How a WHERE term compares: `column = ?`, `column < ?` or `column IS NULL`. */
type Kind = '=' | '<' | ' null';

function kindOf(condition: unknown): Kind {
  if (condition === null) return ' null';
  return typeof condition === 'object' && !Buffer.isBuffer(condition) && 'lt' in condition ? '<' : '=';
}

/** Whether a row's value in memory meets a WHERE term (null, `{ lt }` on a number, or equality), as SQLite would for values stored as they are. */
function holdsInMemory(condition: unknown, value: unknown): boolean {
  if (condition === null) return value === null;
  if (typeof condition === 'object') return typeof value === 'number' && value < (condition as { lt: number }).lt;
  return value === condition;
}

function isBound(value: unknown): value is Value {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || Buffer.isBuffer(value);
}

function bindable(table: string, column: string, value: unknown): Value {
  if (isBound(value)) return value;
  throw new TypeError(`${table}.${column}: ${typeof value} is not a column value`);
}

export interface RowWriterOptions {
  /**
   * Called before a statement with a condition is prepared, with its table (ReadDb name), its SQL
   * and the condition's columns: a build creates an index it put off when the statement needs it.
   */
  beforeConditionPrepared?: (table: TableName, sql: string, columns: readonly string[]) => void;
  /**
   * Writes behind, for builds: the caller must run flush() before its transaction commits.
   * - An upsert that only adds into its row (every column beyond the key is in `add`, none in
   *   `set`) is added to the row's pending sum and written once per key: a few rows (an account's
   *   totals) take thousands of adds a chunk.
   * - Inserts of one column set in a row are written INSERT_ROWS at a time, as one statement; an
   *   update by key of a row still waiting among them changes it there (a notification read just
   *   after it was sent), and one of a key not among them runs in SQL without writing them first.
   * Any other call on a table with writes pending writes them first, so reads and other writes see
   * them; rows keep their order (rowids), keys the order they came first. A constraint a pending
   * row breaks throws from the call that writes it, not the one that made it: a build fails whole.
   */
  writeBehind?: boolean;
}

/** What waits to be written to one table: the adds of one upsert shape by key, or inserts of one column set. */
type Pending =
  | { kind: 'sum'; on: Upsert<TableName>; rows: Map<string, Record<string, unknown>> }
  /** `keys`: each row's key and its index, made at the first update by key (null: a key SQLite would convert). */
  | { kind: 'insert'; columns: string[]; values: Value[]; count: number; keys?: Map<Value, number> | null }
  /** Rows updated by key: 'seen' after a key's first update (made in SQL), then its row, changed in memory. */
  | { kind: 'rows'; rows: Map<string | number, 'seen' | { row: Record<string, unknown>; dirty: boolean } | null> };

type PendingInserts = Extract<Pending, { kind: 'insert' }>;

/** A table's key column and its columns' type affinities (SQLite's rules), for updates in memory. */
interface TableShape {
  key: string;
  types: Map<string, 'integer' | 'text' | 'real' | 'other'>;
  select: Database.Statement;
  /** Every column but the key, then the key: the write of a changed row. */
  write: Database.Statement;
  columns: string[];
}

function affinityOf(declared: string): 'integer' | 'text' | 'real' | 'other' {
  const type = declared.toUpperCase();
  if (type.includes('INT')) return 'integer';
  if (type.includes('CHAR') || type.includes('CLOB') || type.includes('TEXT')) return 'text';
  if (type.includes('REAL') || type.includes('FLOA') || type.includes('DOUB')) return 'real';
  return 'other';
}

/** Whether SQLite stores `value` in a column of this affinity as it is (so the copy in memory reads as the table would). */
function storedAsIs(affinity: 'integer' | 'text' | 'real' | 'other' | undefined, value: unknown): boolean {
  if (value === null) return affinity !== undefined;
  if (affinity === 'integer') return typeof value === 'number' && Number.isSafeInteger(value);
  if (affinity === 'text') return typeof value === 'string';
  if (affinity === 'real') return typeof value === 'number';
  return false;
}

/** Rows per multi-row INSERT of a write-behind (19 columns × 32 stays far below SQLite's 32,766 variables). */
const INSERT_ROWS = 32;

/**
 * Rows over one better-sqlite3 connection. `nameOf` maps a table's ReadDb name to the physical table
 * (identity for the live tables, the shadow's name during a rebuild). Statements are cached per
 * writer, so a shadow build's statements go away with its writer.
 */
export class RowWriter implements Rows {
  readonly #statements = new Map<string, Database.Statement>();
  /**
   * Per table, the columns and statements of its latest inserts. A projection writes a table in one
   * or a few shapes, call after call: checking a row against those skips building its statement's
   * key, a string of every column name (for a wide row, a third of the insert's cost).
   */
  readonly #inserts = new Map<string, Array<{ columns: string[]; statement: Database.Statement }>>();
  /** The same for upserts, which also need the very same `on` (a constant of the projection) to match. */
  readonly #upserts = new Map<string, Array<{ columns: string[]; on: object; statement: Database.Statement }>>();
  /** The same for updates: the columns set, the columns added to, and the condition's columns and kinds. */
  readonly #updates = new Map<string, Array<{ set: string[]; add: string[]; where: string[]; kinds: Kind[]; statement: Database.Statement }>>();

  /** With writeBehind: per table, what is not written yet. */
  readonly #sums: Map<string, Pending> | undefined;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly nameOf: (table: TableName) => string = (table) => table,
    private readonly options: RowWriterOptions = {},
  ) {
    this.#sums = options.writeBehind ? new Map() : undefined;
  }

  /** Writes what is pending (writeBehind); a no-op without. */
  flush(): void {
    if (this.#sums === undefined) return;
    for (const table of [...this.#sums.keys()]) this.#flushSums(table as TableName);
  }

  #flushSums(table: TableName): void {
    const pending = this.#sums!.get(table);
    if (pending === undefined) return;
    this.#sums!.delete(table);
    if (pending.kind === 'sum') {
      for (const row of pending.rows.values()) this.#upsertNow(table, row as NewRow<TableName>, pending.on);
      return;
    }
    if (pending.kind === 'rows') {
      const shape = this.#shapeOf(table)!;
      for (const entry of pending.rows.values()) {
        if (entry === null || entry === 'seen' || !entry.dirty) continue;
        shape.write.run(shape.columns.map((column) => entry.row[column] as Value));
      }
      return;
    }
    const width = pending.columns.length;
    const columnKey = `${pending.columns.join(',')},`;
    for (let done = 0; done < pending.count; ) {
      const n = Math.min(INSERT_ROWS, pending.count - done);
      const key = `m ${table} ${columnKey} ${n}`;
      const statement = this.#statements.get(key) ?? this.#prepare(key, this.#insertSql(table, columnKey, n));
      statement.run(pending.values.slice(done * width, (done + n) * width));
      done += n;
    }
  }

  /** Queues an insert (writeBehind) behind the table's pending ones of the same column set. */
  #insertBehind(table: TableName, row: Record<string, unknown>): void {
    const pending = this.#sums!.get(table);
    if (pending !== undefined && pending.kind === 'insert') {
      const before = pending.values.length;
      if (this.#hasColumns(table, row, pending.columns, pending.values)) {
        pending.count += 1;
        if (pending.keys) this.#indexRow(table, pending, pending.count - 1);
        return;
      }
      pending.values.length = before;
    }
    if (pending !== undefined) this.#flushSums(table);
    const values: Value[] = [];
    const columns: string[] = [];
    this.#rowKey(table, row, values, columns);
    this.#sums!.set(table, { kind: 'insert', columns, values, count: 1 });
  }

  /** Indexes a pending insert's row by its key (`keys` becomes null if SQLite might store that key otherwise). */
  #indexRow(table: TableName, pending: PendingInserts, index: number): void {
    const shape = this.#shapeOf(table);
    const column = shape === null ? -1 : pending.columns.indexOf(shape.key);
    const key = column < 0 ? undefined : pending.values[index * pending.columns.length + column];
    if (shape === null || key === undefined || key === null || !storedAsIs(shape.types.get(shape.key), key)) pending.keys = null;
    else pending.keys!.set(key, index);
  }

  /**
   * An update by key while the table's inserts wait (writeBehind): the row changed among them, 0 if
   * its other conditions do not hold, 'sql' if no row waiting has the key (SQL changes the same rows
   * before as after they are written), or undefined if only SQLite can tell (a column the inserts
   * left to its default, a value it would convert).
   */
  #updatePending(table: TableName, shape: TableShape, pending: PendingInserts, key: string | number, where: Record<string, unknown>, changes: { set?: Record<string, unknown>; add?: Record<string, unknown> }): number | 'sql' | undefined {
    if (pending.keys === undefined) {
      pending.keys = new Map();
      for (let index = 0; index < pending.count && pending.keys; index++) this.#indexRow(table, pending, index);
    }
    if (pending.keys === null) return undefined;
    const index = pending.keys.get(key);
    if (index === undefined) return 'sql';
    const { columns, values } = pending;
    const start = index * columns.length;
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined) continue;
      const i = columns.indexOf(column);
      if (i < 0 || !storedAsIs(shape.types.get(column), values[start + i])) return undefined;
      const value = values[start + i];
      if (!holdsInMemory(condition, value)) return 0;
    }
    // Checked whole before any change: a column the inserts left to its default, a number SQLite
    // stores otherwise, or the key itself (`keys` would go stale) leave the update to SQLite.
    for (const column in changes.set) {
      if (changes.set[column] !== undefined && (column === shape.key || !columns.includes(column))) return undefined;
    }
    for (const column in changes.add) {
      if (changes.add[column] === undefined) continue;
      const i = columns.indexOf(column);
      if (i < 0 || column === shape.key || typeof values[start + i] !== 'number' || !storedAsIs(shape.types.get(column), values[start + i])) return undefined;
    }
    for (const column in changes.set) if (changes.set[column] !== undefined) values[start + columns.indexOf(column)] = changes.set[column] as Value;
    for (const column in changes.add) {
      if (changes.add[column] === undefined) continue;
      const i = start + columns.indexOf(column);
      values[i] = (values[i] as number) + (changes.add[column] as number);
    }
    return 1;
  }

  /** Whether `row` only adds (writeBehind): its columns are the key's and `add`'s, the added ones numbers. */
  #isSum(row: Record<string, unknown>, on: Upsert<TableName>): boolean {
    if (on.set !== undefined || on.add === undefined) return false;
    let keyColumns = 0;
    for (const column in row) {
      const value = row[column];
      if (value === undefined) continue;
      if ((on.conflict as readonly string[]).includes(column)) keyColumns += 1;
      else if (!(on.add as readonly string[]).includes(column) || typeof value !== 'number') return false;
    }
    return keyColumns === on.conflict.length;
  }

  #addToSum(table: TableName, row: Record<string, unknown>, on: Upsert<TableName>): void {
    let pending = this.#sums!.get(table);
    if (pending !== undefined && (pending.kind !== 'sum' || pending.on !== on)) {
      this.#flushSums(table);
      pending = undefined;
    }
    if (pending === undefined) this.#sums!.set(table, (pending = { kind: 'sum', on, rows: new Map() }));
    let key = '';
    for (const column of on.conflict) key += `${typeof row[column]}:${String(row[column])}\u0000`;
    const sum = pending.rows.get(key);
    if (sum === undefined) {
      pending.rows.set(key, { ...row });
      return;
    }
    for (const column of on.add!) {
      const value = row[column];
      if (value !== undefined) sum[column] = (sum[column] as number) + (value as number);
    }
  }

  // Every call builds a key of its statement's shape and looks the statement up; the SQL text is
  // made only the first time. No closures, spreads or intermediate arrays on the way: this runs for
  // every row of every event of every rebuild.

  #prepare(key: string, sql: string): Database.Statement {
    const statement = this.sqlite.prepare(sql);
    this.#statements.set(key, statement);
    return statement;
  }

  /** #prepare for a statement with a condition (`whereKey`, as #whereKey made it), told to beforeConditionPrepared first. */
  #prepareWithCondition(key: string, sql: string, table: TableName, whereKey: string): Database.Statement {
    const hook = this.options.beforeConditionPrepared;
    if (hook !== undefined && whereKey !== '') {
      hook(table, sql, whereKey.slice(0, -1).split(',').map((term) => term.replace(/( null|=|<)$/, '')));
    }
    return this.#prepare(key, sql);
  }

  /** Appends the WHERE values to `values`; returns the condition's shape (part of a cache key). */
  #whereKey(table: string, where: Record<string, unknown>, values: Value[], columns?: string[], kinds?: Kind[], everyRow = false): string {
    let key = '';
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined) continue;
      const kind = kindOf(condition);
      key += `${column}${kind},`;
      columns?.push(column);
      kinds?.push(kind);
      if (kind === '<') values.push(bindable(table, column, (condition as { lt: unknown }).lt));
      else if (kind === '=') values.push(bindable(table, column, condition));
    }
    // Only a read may go without a condition: a change must say which rows it changes.
    if (key === '' && !everyRow) throw new Error(`${table}: a change without a condition`);
    return key;
  }

  /** Whether `where` has exactly these conditions (columns and kinds, in order); appends its values meanwhile. */
  #hasConditions(table: string, where: Record<string, unknown>, columns: readonly string[], kinds: readonly Kind[], values: Value[]): boolean {
    let i = 0;
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined) continue;
      const kind = kindOf(condition);
      if (columns[i] !== column || kinds[i++] !== kind) return false;
      if (kind === '<') values.push(bindable(table, column, (condition as { lt: unknown }).lt));
      else if (kind === '=') values.push(bindable(table, column, condition));
    }
    return i === columns.length;
  }

  /** The WHERE text of a condition's shape, as #whereKey made it. */
  #whereSql(key: string): string {
    return key
      .slice(0, -1)
      .split(',')
      .map((term) => (term.endsWith(' null') ? `${id(term.slice(0, -5))} IS NULL` : term.endsWith('<') ? `${id(term.slice(0, -1))} < ?` : `${id(term.slice(0, -1))} = ?`))
      .join(' AND ');
  }

  /** Appends the row's values (columns not undefined) to `values`; returns its column list. */
  #rowKey(table: string, row: Record<string, unknown>, values: Value[], columns?: string[]): string {
    let key = '';
    for (const column in row) {
      const value = row[column];
      if (value === undefined) continue;
      key += `${column},`;
      columns?.push(column);
      values.push(bindable(table, column, value));
    }
    return key;
  }

  /** Whether the row's columns (not undefined) are exactly `columns`, in order; appends its values meanwhile. */
  #hasColumns(table: string, row: Record<string, unknown>, columns: readonly string[], values: Value[]): boolean {
    let i = 0;
    for (const column in row) {
      const value = row[column];
      if (value === undefined) continue;
      if (columns[i++] !== column) return false;
      values.push(bindable(table, column, value));
    }
    return i === columns.length;
  }

  /** INSERT of `rows` rows (one unless a write-behind's) with these columns. */
  #insertSql(table: TableName, columnKey: string, rows = 1): string {
    const columns = columnKey.slice(0, -1).split(',');
    const one = `(${columns.map(() => '?').join(', ')})`;
    return `INSERT INTO ${id(this.nameOf(table))} (${columns.map(id).join(', ')}) VALUES ${Array.from({ length: rows }, () => one).join(', ')}`;
  }

  insert<T extends TableName>(table: T, row: NewRow<T>): void {
    if (this.#sums !== undefined) return this.#insertBehind(table, row);
    const values: Value[] = [];
    for (const shape of this.#inserts.get(table) ?? []) {
      if (this.#hasColumns(table, row, shape.columns, values)) {
        shape.statement.run(values);
        return;
      }
      values.length = 0;
    }
    const names: string[] = [];
    const columns = this.#rowKey(table, row, values, names);
    const key = `i ${table} ${columns}`;
    const statement = this.#statements.get(key) ?? this.#prepare(key, this.#insertSql(table, columns));
    remember(this.#inserts, table, { columns: names, statement });
    statement.run(values);
  }

  upsert<T extends TableName>(table: T, row: NewRow<T>, on: Upsert<T>): void {
    if (this.#sums !== undefined) {
      if (this.#isSum(row, on as Upsert<TableName>)) return this.#addToSum(table, row, on as Upsert<TableName>);
      if (this.#sums.has(table)) this.#flushSums(table);
    }
    this.#upsertNow(table, row, on);
  }

  #upsertNow<T extends TableName>(table: T, row: NewRow<T>, on: Upsert<T>): void {
    const values: Value[] = [];
    for (const shape of this.#upserts.get(table) ?? []) {
      if (shape.on === on && this.#hasColumns(table, row, shape.columns, values)) {
        shape.statement.run(values);
        return;
      }
      values.length = 0;
    }
    const names: string[] = [];
    const columns = this.#rowKey(table, row, values, names);
    const key = `u ${table} ${columns} ${on.conflict.join(',')} ${on.set?.join(',') ?? ''} ${on.add?.join(',') ?? ''}`;
    let statement = this.#statements.get(key);
    if (!statement) {
      const changes = [
        ...(on.set ?? []).map((c) => `${id(c)} = excluded.${id(c)}`),
        ...(on.add ?? []).map((c) => `${id(c)} = ${id(c)} + excluded.${id(c)}`),
      ];
      const action = changes.length > 0 ? `DO UPDATE SET ${changes.join(', ')}` : 'DO NOTHING';
      statement = this.#prepare(key, `${this.#insertSql(table, columns)} ON CONFLICT (${on.conflict.map(id).join(', ')}) ${action}`);
    }
    remember(this.#upserts, table, { columns: names, on, statement });
    statement.run(values);
  }

  /** Per table, its key and column types (writeBehind), or null where rows are not kept in memory. */
  readonly #shapes = new Map<string, TableShape | null>();

  #shapeOf(table: TableName): TableShape | null {
    let shape = this.#shapes.get(table);
    if (shape !== undefined) return shape;
    const physical = id(this.nameOf(table));
    const info = this.sqlite.prepare<[string], { name: string; type: string; pk: number }>('SELECT name, type, pk FROM pragma_table_info(?)').all(this.nameOf(table));
    const keys = info.filter((c) => c.pk > 0);
    if (keys.length !== 1) shape = null;
    else {
      const key = keys[0]!.name;
      const others = info.filter((c) => c.name !== key).map((c) => c.name);
      shape = {
        key,
        types: new Map(info.map((c) => [c.name, affinityOf(c.type)])),
        select: this.sqlite.prepare(`SELECT * FROM ${physical} WHERE ${id(key)} = ?`),
        write: this.sqlite.prepare(`UPDATE ${physical} SET ${others.map((c) => `${id(c)} = ?`).join(', ')} WHERE ${id(key)} = ?`),
        columns: [...others, key],
      };
    }
    this.#shapes.set(table, shape);
    return shape;
  }

  /** Writes what is pending on the table, for the caller to run the update in SQL (a method: a closure made per call cost more than the call's work). */
  #fallBack(table: TableName): undefined {
    this.#flushSums(table);
    return undefined;
  }

  /**
   * An update by key (writeBehind): a key's second update on loads its row, and it and the ones
   * after change the row in memory (a wallet takes dozens of updates a page), written once by
   * flush. The number of rows changed, or undefined for the caller to run it in SQL (anything
   * whose result in memory could differ from SQLite's: values of another type than the column's,
   * conditions other than `=` on such values, `<` on numbers and IS NULL).
   */
  #updateInMemory(table: TableName, where: Record<string, unknown>, changes: { set?: Record<string, unknown>; add?: Record<string, unknown> }): number | undefined {
    const shape = this.#shapeOf(table);
    let pending = this.#sums!.get(table);
    if (shape === null) return this.#fallBack(table);
    const key = where[shape.key];
    if ((typeof key !== 'string' && typeof key !== 'number') || !storedAsIs(shape.types.get(shape.key), key)) return this.#fallBack(table);
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined || condition === null) continue;
      if (typeof condition === 'object') {
        if (Buffer.isBuffer(condition) || typeof (condition as { lt?: unknown }).lt !== 'number') return this.#fallBack(table);
      } else if (!storedAsIs(shape.types.get(column), condition)) return this.#fallBack(table);
    }
    if (changes.set) for (const column in changes.set) if (changes.set[column] !== undefined && !storedAsIs(shape.types.get(column), changes.set[column])) return this.#fallBack(table);
    if (changes.add) for (const column in changes.add) if (changes.add[column] !== undefined && (shape.types.get(column) !== 'integer' || !Number.isSafeInteger(changes.add[column]))) return this.#fallBack(table);
    if (pending?.kind === 'insert') {
      const changed = this.#updatePending(table, shape, pending, key, where, changes);
      if (changed === 'sql') return undefined;
      if (changed !== undefined) return changed;
    }
    if (pending !== undefined && pending.kind !== 'rows') {
      this.#flushSums(table);
      pending = undefined;
    }
    if (pending === undefined) this.#sums!.set(table, (pending = { kind: 'rows', rows: new Map() }));
    let entry = pending.rows.get(key);
    if (entry === undefined) {
      // The first update of a key runs in SQL: most rows (a notification read) take one.
      pending.rows.set(key, 'seen');
      return undefined;
    }
    if (entry === 'seen') {
      const row = shape.select.get(key) as Record<string, unknown> | undefined;
      entry = row === undefined ? null : { row, dirty: false };
      pending.rows.set(key, entry);
    }
    if (entry === null) return 0;
    const row = entry.row;
    for (const column in where) {
      const condition = where[column];
      if (condition === undefined) continue;
      const value = row[column];
      if (!holdsInMemory(condition, value)) return 0;
    }
    if (changes.add) for (const column in changes.add) if (changes.add[column] !== undefined && typeof row[column] !== 'number') return this.#fallBack(table);
    if (changes.set) for (const column in changes.set) if (changes.set[column] !== undefined) row[column] = changes.set[column];
    if (changes.add) for (const column in changes.add) if (changes.add[column] !== undefined) row[column] = (row[column] as number) + (changes.add[column] as number);
    entry.dirty = true;
    return 1;
  }

  update<T extends TableName>(table: T, where: Where<T>, changes: Update<T>): number {
    if (this.#sums !== undefined) {
      const changed = this.#updateInMemory(table, where, changes);
      if (changed !== undefined) return changed;
    }
    const values: Value[] = [];
    for (const shape of this.#updates.get(table) ?? []) {
      if (
        (changes.set ? this.#hasColumns(table, changes.set, shape.set, values) : shape.set.length === 0) &&
        (changes.add ? this.#hasColumns(table, changes.add, shape.add, values) : shape.add.length === 0) &&
        this.#hasConditions(table, where, shape.where, shape.kinds, values)
      ) {
        return shape.statement.run(values).changes;
      }
      values.length = 0;
    }
    const set: string[] = [];
    const add: string[] = [];
    const setKey = changes.set ? this.#rowKey(table, changes.set, values, set) : '';
    const addKey = changes.add ? this.#rowKey(table, changes.add, values, add) : '';
    if (setKey === '' && addKey === '') return 0;
    const whereColumns: string[] = [];
    const kinds: Kind[] = [];
    const whereKey = this.#whereKey(table, where, values, whereColumns, kinds);
    const key = `U ${table} ${setKey} +${addKey} ${whereKey}`;
    let statement = this.#statements.get(key);
    if (!statement) {
      const assignments = [
        ...(setKey ? setKey.slice(0, -1).split(',') : []).map((c) => `${id(c)} = ?`),
        ...(addKey ? addKey.slice(0, -1).split(',') : []).map((c) => `${id(c)} = ${id(c)} + ?`),
      ];
      statement = this.#prepareWithCondition(key, `UPDATE ${id(this.nameOf(table))} SET ${assignments.join(', ')} WHERE ${this.#whereSql(whereKey)}`, table, whereKey);
    }
    remember(this.#updates, table, { set, add, where: whereColumns, kinds, statement });
    return statement.run(values).changes;
  }

  delete<T extends TableName>(table: T, where: Where<T>): number {
    if (this.#sums?.has(table)) this.#flushSums(table);
    const values: Value[] = [];
    const whereKey = this.#whereKey(table, where, values);
    const key = `D ${table} ${whereKey}`;
    const statement = this.#statements.get(key) ?? this.#prepareWithCondition(key, `DELETE FROM ${id(this.nameOf(table))} WHERE ${this.#whereSql(whereKey)}`, table, whereKey);
    return statement.run(values).changes;
  }

  #select(table: TableName, where: Record<string, unknown>, columns: readonly string[], limit: string, values: Value[]): Database.Statement {
    if (this.#sums?.has(table)) this.#flushSums(table);
    const whereKey = this.#whereKey(table, where, values, undefined, undefined, true);
    const key = `S ${table} ${columns.join(',')} ${whereKey} ${limit}`;
    return (
      this.#statements.get(key) ??
      this.#prepareWithCondition(
        key,
        `SELECT ${columns.map(id).join(', ')} FROM ${id(this.nameOf(table))} WHERE ${whereKey === '' ? '1' : this.#whereSql(whereKey)} ORDER BY rowid${limit}`,
        table,
        whereKey,
      )
    );
  }

  get<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C> | undefined {
    const values: Value[] = [];
    const statement = this.#select(table, where, columns, ' LIMIT 1', values);
    // The columns asked for, of the table's row type: what the typed schema says the table holds.
    return statement.get(values) as Pick<RowOf<T>, C> | undefined;
  }

  all<T extends TableName, C extends ColumnOf<T>>(table: T, where: Where<T>, columns: readonly C[]): Pick<RowOf<T>, C>[] {
    const values: Value[] = [];
    return this.#select(table, where, columns, '', values).all(values) as Pick<RowOf<T>, C>[];
  }
}
