import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CollectionRequest, DataProvider } from './data-provider';
import { parsePagination } from '../query/pagination';
import type { ResourceRegistry } from '../metadata/resource-registry';
import { csvLine, plannedColumns } from '../serialization/csv';

export interface CollectionCsvOptions {
  /**
   * Only the requested page (`page`, `itemsPerPage`), as a CSV response answers;
   * false writes every row the filters select (exports).
   */
  paginate: boolean;
  /** Called once the columns are known, right before the header is written. */
  onStart?: () => void;
}

/** Rows fetched per `FETCH`: what the stream holds in memory at once. */
const BATCH_ROWS = 500;

/**
 * Writes a collection as CSV to `output`, streamed from a cursor: rows go from
 * PostgreSQL to the output in batches of 500, so any number of rows holds one
 * batch in memory. Columns come from the declaration (array widths measured
 * first), so they are known before the first row. Returns the number of rows.
 * `output` is ended when the last row is written.
 *
 * The cursor is declared in a read-only transaction and read with one `FETCH` per
 * batch, so the pool's statement_timeout bounds each batch, not the whole export: a
 * streamed portal (pg-query-stream) is one statement until its last row, and an
 * export written to a slow client outlasted the timeout and was cancelled halfway.
 */
export async function writeCollectionCsv(
  data: DataProvider,
  registry: ResourceRegistry,
  collection: CollectionRequest,
  output: Writable,
  options: CollectionCsvOptions,
): Promise<number> {
  const { resource } = collection;
  const pagination = options.paginate
    ? parsePagination(collection.params, collection.maxItemsPerPage ?? resource.maxItemsPerPage)
    : null;
  const query = data.buildCollectionQuery(collection);
  const view = data.viewOf(collection);
  const reader = data.reader.reader(resource, view);
  const widths = new Map<string, number>();
  const select = data.reader.select(resource, query, view);
  const order = data.orderClause(resource, query);
  if (reader.arrayColumns.length > 0) {
    const maxes = reader.arrayColumns.map((a, i) => `max(${a.length}) AS w${i}`).join(', ');
    const page = pagination
      ? `${order} LIMIT ${pagination.itemsPerPage} OFFSET ${pagination.offset}`
      : '';
    const inner = `SELECT t.* ${query.fromClause()}${query.whereClause()}${page}`;
    const { rows } = await data.pool.query(`SELECT ${maxes} FROM (${inner}) t`, query.params);
    reader.arrayColumns.forEach((a, i) => widths.set(a.property, Number(rows[0][`w${i}`] ?? 0)));
  }
  const columns = plannedColumns(resource, view, widths, (target) =>
    registry
      .get(target)
      .properties.filter((p) => p.readable && p.kind === 'column')
      .map((p) => p.name),
  );
  const limit = pagination
    ? ` LIMIT ${query.param(pagination.itemsPerPage)} OFFSET ${query.param(pagination.offset)}`
    : '';
  const sql = `SELECT ${select} ${query.fromClause()}${query.whereClause()}${order}${limit}`;
  const client = await data.pool.connect();
  let count = 0;
  let open = false;
  try {
    await client.query('BEGIN READ ONLY');
    open = true;
    await client.query(`DECLARE csv_rows NO SCROLL CURSOR FOR ${sql}`, query.params);
    options.onStart?.();
    output.write(csvLine(columns.map((c) => c.header)));
    async function* lines(): AsyncGenerator<string> {
      for (;;) {
        const { rows } = await client.query(`FETCH ${BATCH_ROWS} FROM csv_rows`);
        let chunk = '';
        for (const row of rows as Record<string, unknown>[]) {
          const record = reader.map(row);
          chunk += csvLine(columns.map((c) => c.get(record)));
        }
        count += rows.length;
        if (chunk) yield chunk;
        if (rows.length < BATCH_ROWS) return;
      }
    }
    await pipeline(Readable.from(lines(), { objectMode: false }), output);
    await client.query('COMMIT');
    open = false;
  } finally {
    // A failed or abandoned stream (the client went away) ends its transaction here.
    let broken: Error | undefined;
    if (open) await client.query('ROLLBACK').catch((error: Error) => (broken = error));
    // A connection that cannot even roll back is not given back to the pool.
    client.release(broken);
  }
  return count;
}
