/** The batch add's pure parts: the quick check of a chosen file, the report's counts and the logins as CSV. */
import { SHEET_EXTENSION, SHEET_MAX_BYTES, SHEET_OUTCOMES, type Connection, type SheetOutcome, type SheetRow } from './api/manage';

export type FileProblem = 'type' | 'size';

/** What is surely wrong with a chosen file before sending it; the server checks the rest (rows, content). */
export function sheetFileProblem(file: File): FileProblem | null {
  if (!file.name.toLowerCase().endsWith(SHEET_EXTENSION)) return 'type';
  if (file.size > SHEET_MAX_BYTES) return 'size';
  return null;
}

/** How many rows ended each way, every outcome present (0 when none). */
export function outcomeCounts(rows: readonly SheetRow[]): Record<SheetOutcome, number> {
  const counts = Object.fromEntries(SHEET_OUTCOMES.map((outcome) => [outcome, 0])) as Record<SheetOutcome, number>;
  for (const row of rows) counts[row.outcome] += 1;
  return counts;
}

/**
 * A cell of RFC 4180 CSV. A spreadsheet would take text starting with = + - @ (a password may
 * start with -) for a formula and show an error instead: a leading ' keeps it text.
 */
function cell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

export interface LoginColumns {
  row: string;
  guid: string;
  password: string;
  host: string;
  port: string;
}

/** The added devices' logins with where to connect, one device a line, for a technician to keep once. */
export function loginsCsv(rows: readonly SheetRow[], columns: LoginColumns, connection: Connection): string {
  const lines = [[columns.row, columns.guid, columns.password, columns.host, columns.port]];
  for (const row of rows) {
    if (row.credentials) {
      const port = `${connection.port}${connection.tls ? ' (TLS)' : ''}`;
      lines.push([String(row.row), row.credentials.username, row.credentials.password, connection.host, port]);
    }
  }
  // CRLF as RFC 4180 has it, and a BOM so that a spreadsheet reads the headers as UTF-8.
  return `\uFEFF${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}
