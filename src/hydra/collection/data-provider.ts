import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Pool, PoolClient } from 'pg';
import type { Principal } from '../../access/principal';
import { identifierFrom, identifierCast, itemIdentifier } from '../core/identifiers';
import { collectionView, type RecordView } from '../serialization/serialization-groups';
import type { ResourceMeta } from '../core/resource-meta';
import { ResourceRegistry } from '../metadata/resource-registry';
import { QueryParams } from '../core/query-params';
import { resolvePropertyPath } from '../query/property-path';
import { SqlQuery, quoteIdent } from '../core/sql-query';
import { RecordReader } from '../serialization/record-reader';
import { ApiRecord } from '../core/api-record';
import { Pagination, parsePagination, type CollectionResult } from '../query/pagination';
import { applyTenancy, tenancyAdmitsId } from './tenancy';
import {
  COMPACT_AFTER_DELTAS,
  CountCompactor,
  CountDefinition,
  countKeyOf,
  loadCountDefinitions,
} from './maintained-counts';
import { READ_COUNT_SQL } from './maintained-counts.sql';
import { NotFoundError } from '../../common/errors/api-errors';
import type { ResourceHooks } from '../core/resource-hooks';
import type { Request } from 'express';
import { poolOf, preparedQuery, query as runQuery } from '../../database/query';
import { VisibleMemory } from './visible-memory';

export interface CollectionRequest {
  resource: ResourceMeta;
  principal: Principal | null;
  params: QueryParams;
  /** Constraints from a nested route: property path -> id. */
  scope?: Array<{ path: string; id: string }>;
  maxItemsPerPage?: number;
  /** The resource's rules, for extra collection conditions. */
  hooks?: ResourceHooks;
  request?: Request;
}

export interface CollectionPlan {
  pagination: Pagination;
  /** `count(*)` of the query, or the read of a maintained count that equals it. */
  countSql: string;
  countParams: unknown[];
  /** True when countSql reads a maintained count. */
  maintainedCount: boolean;
  pageSql: string;
  pageParams: unknown[];
  /** The properties its rows show (serialization-groups.ts). */
  view: RecordView;
}

/**
 * Reads resources: tenant scope -> route scope -> filters -> order ->
 * pagination -> count. Runs plain SQL on the pool; the statement is built
 * from the resource declaration only.
 */
@Injectable()
export class DataProvider implements OnModuleInit {
  readonly reader: RecordReader;
  private readonly logger = new Logger(DataProvider.name);
  private countDefinitions = new Map<string, CountDefinition>();
  private readonly countsOf = new Map<
    ResourceMeta,
    { definition: CountDefinition; dimensions: Set<string> } | null
  >();
  /** Item statements by shape (itemSql). */
  private readonly itemStatements = new Map<string, string>();
  private readonly compactor = new CountCompactor(
    () => this.pool,
    (error) => this.logger.warn(`maintained count compaction failed: ${String(error)}`),
  );

  constructor(
    private readonly dataSource: DataSource,
    readonly registry: ResourceRegistry,
  ) {
    this.reader = new RecordReader(registry);
  }

  async onModuleInit(): Promise<void> {
    this.countDefinitions = await loadCountDefinitions(this.pool);
  }

  /**
   * The maintained counts a resource declares (`counts`) that a migration installed for its
   * table: the dimensions as columns. A declared dimension without its trigger is counted
   * with count(*) (and said once in the log).
   */
  private countsFor(resource: ResourceMeta) {
    if (this.countsOf.has(resource)) return this.countsOf.get(resource)!;
    const declared = resource.options.counts;
    const definition = declared && this.countDefinitions.get(resource.table);
    let counts: { definition: CountDefinition; dimensions: Set<string> } | null = null;
    if (declared && !definition) {
      this.logger.warn(`${resource.shortName}: no maintained counts installed; using count(*)`);
    } else if (declared && definition) {
      const dimensions = new Set<string>();
      const probe = new SqlQuery(resource.table, 't');
      for (const property of declared) {
        const sql = resolvePropertyPath(
          resource,
          property,
          probe,
          this.registry.describeColumn,
        )?.sql;
        const column = definition.columns.find((c) => sql === `t.${quoteIdent(c)}`);
        if (column) dimensions.add(column);
        else this.logger.warn(`${resource.shortName}: no maintained count of ${property}`);
      }
      counts = { definition, dimensions };
    }
    this.countsOf.set(resource, counts);
    return counts;
  }

  get pool(): Pool {
    return poolOf(this.dataSource);
  }

  /** The filtered, scoped query of a collection, without select list, order or paging. */
  buildCollectionQuery(req: CollectionRequest): SqlQuery {
    const { resource } = req;
    const query = new SqlQuery(resource.table, 't');
    const resolve = (path: string) =>
      resolvePropertyPath(resource, path, query, this.registry.describeColumn);
    applyTenancy(resource, query, req.principal, resolve);
    for (const { path, id } of req.scope ?? []) {
      const resolved = resolve(path);
      if (!resolved) throw new Error(`${resource.shortName}: route scope ${path} does not resolve`);
      query.andWhere(`${resolved.sql} = ${query.param(id)}${resolved.isUuid ? '::uuid' : ''}`, {
        sql: resolved.sql,
        values: [resolved.isUuid ? id.toLowerCase() : id],
      });
    }
    for (const filter of resource.filters) filter.apply({ params: req.params, query, resolve });
    if (req.hooks?.scopeCollection && req.request) {
      req.hooks.scopeCollection(query, {
        principal: req.principal,
        resource,
        request: req.request,
      });
    }
    return query;
  }

  /** ORDER BY: requested order, else the declared default, always ending with the id. */
  orderClause(resource: ResourceMeta, query: SqlQuery): string {
    const parts = [...query.orderBy];
    if (parts.length === 0) {
      for (const [property, dir] of Object.entries(
        resource.options.defaultOrder ?? { createdAt: 'DESC' },
      )) {
        const path = resolvePropertyPath(resource, property, query, this.registry.describeColumn);
        if (path) parts.push(`${path.sql} ${dir}`);
      }
    }
    const idSql = `${query.alias}.${quoteIdent(resource.idColumn)}`;
    if (!parts.some((p) => p.startsWith(idSql + ' '))) {
      const lastDesc = parts.length > 0 && parts[parts.length - 1].endsWith(' DESC');
      parts.push(`${idSql} ${lastDesc ? 'DESC' : 'ASC'}`);
    }
    return ` ORDER BY ${parts.join(', ')}`;
  }

  /** The properties a collection request shows (serialization-groups.ts). */
  viewOf(req: CollectionRequest): RecordView {
    return collectionView(req.resource.itemGroup, req.params, (req.scope?.length ?? 0) > 0);
  }

  /** The two statements of a collection page (count and rows), exactly as `list` runs them. */
  plan(req: CollectionRequest): CollectionPlan {
    const pagination = parsePagination(
      req.params,
      req.maxItemsPerPage ?? req.resource.maxItemsPerPage,
    );
    const query = this.buildCollectionQuery(req);
    const counts = this.countsFor(req.resource);
    const key = counts && countKeyOf(query, counts.definition, counts.dimensions);
    const countSql = key
      ? READ_COUNT_SQL
      : `SELECT count(*)::int AS n ${query.fromClause()}${query.whereClause()}`;
    const countParams = key
      ? [key.table, key.scopeIds, key.dimension, key.values]
      : [...query.params];
    // The page's rows are chosen first, from the table and the joins of the filters and the
    // order only; the select list (embedded relations, computed columns, to-many id arrays)
    // is computed over those rows. With the select list's subqueries costed over every
    // matching row, the planner saw all index paths as equally expensive (within its 1 %
    // fuzz) and could walk the whole workspace in created order to find 30 rows of one
    // carrier instead of using the carrier index.
    const order = this.orderClause(req.resource, query);
    const rows = `SELECT ${query.alias}.* ${query.fromClause()}${query.whereClause()}${order} LIMIT ${query.param(pagination.itemsPerPage)} OFFSET ${query.param(pagination.offset)}`;
    const view = this.viewOf(req);
    const select = this.reader.select(req.resource, query, view);
    const pageSql = `SELECT ${select} FROM (${rows}) ${query.alias}${query.joinClause()}${order}`;
    return {
      pagination,
      countSql,
      countParams,
      maintainedCount: key !== null && key !== undefined,
      pageSql,
      pageParams: query.params,
      view,
    };
  }

  async list(req: CollectionRequest): Promise<CollectionResult> {
    const plan = this.plan(req);
    const reader = this.reader.reader(req.resource, plan.view);
    const [count, page] = await Promise.all([
      preparedQuery(this.pool, plan.countSql, plan.countParams),
      plan.pagination.itemsPerPage === 0
        ? Promise.resolve({ rows: [] })
        : preparedQuery(this.pool, plan.pageSql, plan.pageParams),
    ]);
    const counted = count.rows[0] as { n: number | string; deltas?: number };
    if (plan.maintainedCount && counted.deltas! > COMPACT_AFTER_DELTAS) {
      this.compactor.compact(plan.countParams);
    }
    return {
      members: page.rows.map((r: Record<string, unknown>) => reader.map(r)),
      // A maintained count is a bigint (text from pg); count(*)::int a number.
      totalItems: Number(counted.n),
      pagination: plan.pagination,
    };
  }

  /** One record visible to the principal, or null (missing and foreign look the same). */
  async find(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
    client?: PoolClient,
  ): Promise<ApiRecord | null> {
    const plan = this.planItem(resource, principal, id);
    if (!plan) return null;
    const { rows } = await preparedQuery(client ?? this.pool, plan.sql, plan.params);
    return rows.length ? this.reader.reader(resource).map(rows[0]) : null;
  }

  /**
   * One record visible to the principal as its JSON text (`json`) with its id, rendered by
   * PostgreSQL (record-json.ts); null when missing or foreign. Resources whose properties the
   * SQL rendering does not cover are read with `find` and stringified here.
   */
  async findJson(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
    client?: PoolClient,
  ): Promise<{ id: string; json: string; updatedAt?: Date | null } | null> {
    const plan = this.planItemJson(resource, principal, id);
    if (plan === undefined) {
      const record = await this.find(resource, principal, id, client);
      if (!record) return null;
      const updatedAt = record.updatedAt;
      return {
        id: String(record[resource.idProperty]),
        json: JSON.stringify(record),
        updatedAt: typeof updatedAt === 'string' ? new Date(updatedAt) : null,
      };
    }
    if (!plan) return null;
    const { rows } = await preparedQuery(client ?? this.pool, plan.sql, plan.params);
    if (!rows.length) return null;
    const u = rows[0].u as number | Date | null | undefined;
    return {
      id: rows[0].i as string,
      json: rows[0].j as string,
      updatedAt: typeof u === 'number' ? new Date(u * 1000) : (u ?? null),
    };
  }

  /** The statement `find` runs for one item (null: the id cannot exist). */
  planItem(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
  ): { sql: string; params: unknown[] } | null {
    const query = this.itemQuery(resource, principal, id);
    if (!query) return null;
    return {
      sql: this.itemSql('row', resource, query, (select) => select),
      params: query.params,
    };
  }

  /**
   * The statement `findJson` runs for one item: its id and JSON text (null: the id cannot
   * exist; undefined: the resource is read with `find`).
   */
  planItemJson(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
  ): { sql: string; params: unknown[] } | null | undefined {
    const json = this.reader.reader(resource).json;
    if (json === null) return undefined;
    const query = this.itemQuery(resource, principal, id);
    if (!query) return null;
    return {
      sql: this.itemSql(
        'json',
        resource,
        query,
        () =>
          `t.${quoteIdent(resource.idColumn)}::text AS i, (${json})::text AS j${updatedAtSelect(resource)}`,
      ),
      params: query.params,
    };
  }

  /**
   * The item statement for this query's conditions, built once per shape (resource, tenancy,
   * rendering): the same string every time, so that its prepared-statement name is found
   * without hashing a few kilobytes of freshly concatenated SQL on every request.
   */
  private itemSql(
    rendering: 'row' | 'json',
    resource: ResourceMeta,
    query: SqlQuery,
    selectList: (select: string) => string,
  ): string {
    const select = this.reader.select(resource, query);
    const rest = `${query.fromClause()}${query.whereClause()}`;
    const key = `${rendering} ${resource.shortName} ${rest}`;
    let sql = this.itemStatements.get(key);
    if (sql === undefined) {
      sql = `SELECT ${selectList(select)} ${rest}`;
      if (this.itemStatements.size >= 1000) this.itemStatements.clear();
      this.itemStatements.set(key, sql);
    }
    return sql;
  }

  /** The tenancy-scoped query of one item by id, without select list (null: it cannot exist). */
  private itemQuery(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
  ): SqlQuery | null {
    const key = itemIdentifier(resource, id);
    if (key === null) return null;
    const query = new SqlQuery(resource.table, 't');
    const resolve = (path: string) =>
      resolvePropertyPath(resource, path, query, this.registry.describeColumn);
    applyTenancy(resource, query, principal, resolve);
    query.andWhere(
      `t.${quoteIdent(resource.idColumn)} = ${query.param(key)}${identifierCast(resource)}`,
    );
    return query;
  }

  async get(resource: ResourceMeta, principal: Principal | null, id: string): Promise<ApiRecord> {
    const record = await this.find(resource, principal, id);
    if (!record) throw new NotFoundError();
    return record;
  }

  /**
   * True when the record exists within the principal's tenancy. Inside a write
   * pass its transaction (`em`): a transaction that waited for a second pool
   * connection could starve the pool while holding row locks. A transaction that asked
   * (rememberVisible) checks a record once for a principal, until it deletes something.
   */
  async visible(
    resource: ResourceMeta,
    principal: Principal | null,
    id: string,
    em?: EntityManager,
  ): Promise<boolean> {
    const query = this.itemQuery(resource, principal, id);
    if (!query) return false;
    if (em && VisibleMemory.seen(em, principal, resource.table, id)) return true;
    const sql = `SELECT 1 ${query.fromClause()}${query.whereClause()} LIMIT 1`;
    // Prepared: every write resolves its references through here (one shape per tenancy).
    const rows: unknown[] = em
      ? await runQuery(em, sql, query.params)
      : (await preparedQuery(this.pool, sql, query.params)).rows;
    if (em && rows.length > 0) VisibleMemory.saw(em, principal, resource.table, id);
    return rows.length > 0;
  }

  /**
   * The transaction of `em` writes many records naming the same ones (an import): each
   * reference is checked once per principal (VisibleMemory), until it deletes something.
   */
  rememberVisible(em: EntityManager): void {
    VisibleMemory.start(em);
  }

  /**
   * A record the principal wrote in this transaction, in a workspace of its own: visible to it
   * from now on, without a statement (a transaction that remembers, rememberVisible). Only for
   * resources whose tenancy is their workspace column.
   */
  sawWritten(
    em: EntityManager,
    resource: ResourceMeta,
    principal: Principal,
    id: string,
    workspaceId: string | undefined,
  ): void {
    const tenancy = resource.options.tenancy;
    if (typeof tenancy !== 'object' || !('workspace' in tenancy)) return;
    if (tenancy.workspace !== 'workspace' || !workspaceId) return;
    if (principal.workspaceIds.includes(workspaceId))
      VisibleMemory.saw(em, principal, resource.table, id);
  }

  /** The transaction of `em` deleted records: references are checked again. */
  forgetVisible(em: EntityManager): void {
    VisibleMemory.forget(em);
  }

  /**
   * Resolves an IRI or raw id of `target` within the tenancy; null when missing or foreign.
   * `existenceChecked`: the caller reads the row in a statement of its own (and reports it
   * missing), so a tenancy decided by the id alone (the principal's own workspace, read from
   * the database for this request) answers without a statement.
   */
  async resolveReference(
    target: ResourceMeta,
    principal: Principal | null,
    iriOrId: string,
    em?: EntityManager,
    { existenceChecked = false }: { existenceChecked?: boolean } = {},
  ): Promise<string | null> {
    const id = target.idIsUuid
      ? identifierFrom(iriOrId)
      : itemIdentifier(target, iriOrId.slice(iriOrId.lastIndexOf('/') + 1));
    if (!id) return null;
    const admitted = existenceChecked ? tenancyAdmitsId(target, principal, id) : undefined;
    if (admitted !== undefined) return admitted ? id : null;
    return (await this.visible(target, principal, id, em)) ? id : null;
  }
}

/**
 * The item's `updatedAt` column beside its JSON text, for `Last-Modified` (README "API
 * conventions"): read by the statement, not parsed back out of the text. A timestamptz comes
 * as whole epoch seconds (a float8 the driver reads with parseFloat), not as a timestamp text
 * for postgres-date's parser: Last-Modified has one-second resolution, and that parse cost
 * more than the rest of the header on every item.
 */
function updatedAtSelect(resource: ResourceMeta): string {
  const property = resource.byName.get('updatedAt');
  if (property?.kind !== 'column' || !property.column || !property.readable) return '';
  const column = `t.${quoteIdent(property.column.databaseName)}`;
  return property.column.type === 'timestamptz'
    ? `, floor(extract(epoch FROM ${column}))::float8 AS u`
    : `, ${column} AS u`;
}
