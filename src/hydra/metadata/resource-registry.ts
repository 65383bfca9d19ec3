import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { buildResourceMeta, columnDescriber } from './resource-metadata';
import type { ColumnDescriber, ResourceLookup, ResourceMeta } from '../core/resource-meta';
import { getResourceOptions } from './decorators';
import { identifierFromSegment, iriSegment } from '../core/identifiers';
import { declaredResources } from './declared-resources';

/** The resolved metadata of every resource known to the data source; built once. */
@Injectable()
export class ResourceRegistry implements ResourceLookup {
  private readonly byTarget = new Map<Function, ResourceMeta>();
  private readonly byShortName = new Map<string, ResourceMeta>();
  private readonly byPath = new Map<string, ResourceMeta>();
  readonly describeColumn: ColumnDescriber;

  constructor(readonly dataSource: DataSource) {
    this.describeColumn = columnDescriber(dataSource);
  }

  all(): ResourceMeta[] {
    this.ensureBuilt();
    return [...this.byTarget.values()];
  }

  get(target: Function): ResourceMeta {
    this.ensureBuilt();
    const meta = this.byTarget.get(target);
    if (!meta) throw new Error(`${target.name} is not an API resource`);
    return meta;
  }

  byName(shortName: string): ResourceMeta | undefined {
    this.ensureBuilt();
    return this.byShortName.get(shortName);
  }

  iriOf(target: Function, id: string): string {
    const resource = this.get(target);
    return `${resource.path}/${iriSegment(resource, id)}`;
  }

  /** `/workspaces/<uuid>` -> the resource and the id; null when not an item IRI of ours. */
  parseIri(iri: string): { resource: ResourceMeta; id: string } | null {
    this.ensureBuilt();
    const slash = iri.lastIndexOf('/');
    if (slash <= 0) return null;
    const resource = this.byPath.get(iri.slice(0, slash));
    const id = resource ? identifierFromSegment(resource, iri.slice(slash + 1)) : null;
    return resource && id ? { resource, id } : null;
  }

  private ensureBuilt(): void {
    if (this.byTarget.size) return;
    for (const target of declaredResources) {
      if (!getResourceOptions(target) || !this.dataSource.hasMetadata(target)) continue;
      const meta = buildResourceMeta(target, this.dataSource);
      this.byTarget.set(target, meta);
      this.byShortName.set(meta.shortName, meta);
      this.byPath.set(meta.path, meta);
    }
  }
}
