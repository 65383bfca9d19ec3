import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AccessTargetResolver } from '../../access/access-target';
import type { Principal } from '../../access/principal';
import { DataProvider } from './data-provider';
import { applyTenancy } from './tenancy';
import { NotFoundError } from '../../common/errors/api-errors';
import { identifierFrom, itemIdentifier } from '../core/identifiers';
import type { ResourceMeta } from '../core/resource-meta';
import { resolvePropertyPath } from '../query/property-path';
import { SqlQuery, quoteIdent } from '../core/sql-query';

/**
 * Resolves the workspaces and teams named by a request for declared access checks, from the
 * resources' own tenancy declarations (so a locator never needs SQL of its own).
 */
@Injectable()
export class AccessTargets {
  constructor(private readonly data: DataProvider) {}

  for(principal: Principal): AccessTargetResolver {
    return {
      reference: async (resource, reference) => {
        const id = await this.data.resolveReference(this.meta(resource), principal, reference);
        if (!id) throw new NotFoundError();
        return id;
      },
      ownersOf: (resource, references, scope) =>
        this.ownersOf(this.meta(resource), principal, references, scope),
    };
  }

  /**
   * Owning workspace or team ids of the records `references` (ids or IRIs) name, in one query
   * within the caller's tenancy; 404 when any of them names no visible record.
   */
  async ownersOf(
    resource: ResourceMeta,
    principal: Principal,
    references: readonly string[],
    scope: 'workspace' | 'team',
    /** Inside a write, its transaction (a second pool connection could starve the pool). */
    em?: EntityManager,
  ): Promise<string[]> {
    const ids = new Set<string>();
    for (const reference of references) {
      const id = resource.idIsUuid
        ? identifierFrom(reference.trim())
        : itemIdentifier(resource, reference.slice(reference.lastIndexOf('/') + 1));
      if (!id) throw new NotFoundError();
      ids.add(id);
    }
    const path = ownerPath(resource, scope);
    const query = new SqlQuery(resource.table, 't');
    const resolve = (p: string) =>
      resolvePropertyPath(resource, p, query, this.data.registry.describeColumn);
    applyTenancy(resource, query, principal, resolve);
    const owner = path === 'self' ? `t.${quoteIdent(resource.idColumn)}` : resolve(path)?.sql;
    if (!owner) throw new Error(`${resource.shortName}: no ${scope} path ${path}`);
    const cast = resource.idIsUuid ? '::uuid[]' : '::text[]';
    query.andWhere(`t.${quoteIdent(resource.idColumn)} = ANY(${query.param([...ids])}${cast})`);
    const sql = `SELECT count(*)::int AS found, array_agg(DISTINCT ${owner}::text) AS owners ${query.fromClause()}${query.whereClause()}`;
    const rows: Array<{ found: number; owners: string[] | null }> = em
      ? await em.query(sql, query.params)
      : (await this.data.pool.query(sql, query.params)).rows;
    if (rows[0].found !== ids.size) throw new NotFoundError();
    return (rows[0].owners ?? []).filter((o) => o !== null);
  }

  private meta(resource: Function): ResourceMeta {
    return this.data.registry.get(resource);
  }
}

/** The property path from a record to its workspace or team, from its tenancy rule. */
export function ownerPath(resource: ResourceMeta, scope: 'workspace' | 'team'): string | 'self' {
  const rule = resource.options.tenancy;
  if (rule !== 'public' && !('anyOf' in rule)) {
    if ('self' in rule && rule.self === scope) return 'self';
    if ('self' in rule && rule.self === 'workspace' && scope === 'team') return 'team';
    if ('workspace' in rule)
      return scope === 'workspace' ? rule.workspace : `${rule.workspace}.team`;
    if ('team' in rule && scope === 'team') return rule.team;
  }
  throw new Error(`${resource.shortName} has no ${scope} in its tenancy`);
}
