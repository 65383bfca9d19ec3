import { parse } from 'csv-parse/sync';

/** A CSV file read as a header and rows of text cells, with the file line of every row. */
export interface CsvTable {
  delimiter: string;
  columns: string[];
  rows: CsvRow[];
}

export interface CsvRow {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  values: string[];
}

/** Why a file cannot be read as a table; `line` when a place in the file is known. */
export class CsvTableError extends Error {
  constructor(
    message: string,
    readonly line: number | null = null,
  ) {
    super(message);
  }
}

const DELIMITERS = [',', ';', '\t', '|'];

/** UTF-8 text of an upload (the decoder drops a byte-order mark); anything else is refused. */
export function decodeCsvText(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    throw new CsvTableError('The file is not UTF-8 text.');
  }
}

/** The delimiter used most in the header line: `,` `;` tab or `|`. */
export function detectDelimiter(text: string): string {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  let best = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = header.split(d).length - 1;
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Reads CSV text with a header row. Empty lines and rows of empty cells are skipped, cells trimmed; rows may be
 * shorter than the header (missing cells are empty) but not longer. At most `maxRows` rows.
 */
export function readCsvTable(text: string, maxRows: number): CsvTable {
  const delimiter = detectDelimiter(text);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text.replace(/^\uFEFF/, ''), {
      delimiter,
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
      to: maxRows + 2,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (error) {
    const e = error as { message?: string; lines?: number };
    throw new CsvTableError(
      `The file is not valid CSV: ${String(e.message ?? 'unreadable').replace(/\s*\(line \d+\)\s*$/, '')}`,
      typeof e.lines === 'number' ? e.lines : null,
    );
  }
  if (records.length === 0) throw new CsvTableError('The file is empty: a header row is expected.');
  const columns = records[0].record.map((c) => c.trim());
  const seen = new Set<string>();
  for (const column of columns) {
    if (column === '') continue;
    const key = column.toLowerCase();
    if (seen.has(key)) throw new CsvTableError(`The column "${column}" appears twice.`, 1);
    seen.add(key);
  }
  if (records.length - 1 > maxRows)
    throw new CsvTableError(`The file has more than ${maxRows} rows.`);
  const rows: CsvRow[] = [];
  for (const { record, info } of records.slice(1)) {
    if (record.length > columns.length) {
      throw new CsvTableError(
        `Line ${info.lines} has ${record.length} cells, the header ${columns.length}.`,
        info.lines,
      );
    }
    // info.lines is where the record ends; quoted cells may span lines.
    const inner = record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
    rows.push({ line: info.lines - inner, values: columns.map((_, i) => record[i] ?? '') });
  }
  return { delimiter, columns, rows };
}
