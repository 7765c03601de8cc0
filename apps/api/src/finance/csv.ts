/** RFC 4180 CSV for finance exports. Text cells that a spreadsheet would run as a formula are quoted with a leading apostrophe. */
function csvCell(value: string | number | null | undefined, text = true): string {
  if (value === null || value === undefined) return '';
  let cell = String(value);
  if (text && /^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/** Header and rows; `numeric` names the columns written as they are (amounts, positions). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>, numeric: ReadonlySet<string> = new Set()): string {
  const lines = [header.map((h) => csvCell(h)).join(',')];
  for (const row of rows) lines.push(row.map((cell, i) => csvCell(cell, !numeric.has(header[i] ?? ''))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Marks a file as UTF-8 for spreadsheets, which otherwise misread Hindi names and the rupee sign. */
export const UTF8_BOM = '\uFEFF';

/**
 * A CSV file as every export of the API and the CLI writes it (docs/finance-audit.md): the UTF-8 BOM,
 * then the header and rows. Only the banks' bulk-upload files go without it (their own layout).
 */
export function csvFile(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>, numeric: ReadonlySet<string> = new Set()): string {
  return UTF8_BOM + toCsv(header, rows, numeric);
}
