import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { DataProvider } from '../hydra/collection/data-provider';
import {
  NotFoundError,
  ValidationError,
  Violation,
  ViolationCodes,
} from '../common/errors/api-errors';
import { identifierFrom, itemIdentifier } from '../hydra/core/identifiers';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { QueryParams } from '../hydra/core/query-params';
import type { ApiRecord } from '../hydra/core/api-record';
import { validateEntity } from '../hydra/validation/validate-entity';
import { Denormalizer } from '../hydra/write/denormalizer';
import {
  StoredRecord,
  ambiguousCode,
  assertWritable,
  selectRecords,
  visibleRecords,
} from './code-addressed';
import { FieldStore } from './field-store';
import { FieldsLayoutStore } from './fields-layout-store';
import { FieldsLayout } from './fields-layout.entity';
import { FieldsService } from './fields.service';

/** Layout rules: codes unique per workspace, every listed field exists once for the entity. */
@Injectable()
export class FieldsLayoutsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
    private readonly denormalizer: Denormalizer,
    private readonly fields: FieldsService,
    private readonly store: FieldsLayoutStore,
    private readonly fieldStore: FieldStore,
  ) {}

  get resource(): ResourceMeta {
    return this.registry.get(FieldsLayout);
  }

  /** The layout `/fields_layouts/{code}` means within the caller's workspaces. */
  async find(principal: Principal, code: string, params: QueryParams): Promise<StoredRecord> {
    // A segment no code can be (empty, too long, a NUL) names nothing, like an unknown code.
    if (itemIdentifier(this.resource, code) === null) throw new NotFoundError();
    const matches = await visibleRecords(
      this.data,
      this.registry,
      this.resource,
      principal,
      params,
      (q) => {
        q.andWhere(`t.code = ${q.param(code)}`);
        const workspace = params.get('workspace');
        if (workspace) {
          const id = identifierFrom(workspace);
          q.andWhere(id ? `t.workspace_id = ${q.param(id)}::uuid` : 'FALSE');
        }
      },
    );
    if (matches.length > 1) throw ambiguousCode(code);
    if (matches.length === 0) throw new NotFoundError();
    return matches[0];
  }

  async record(id: string): Promise<ApiRecord> {
    const [match] = await selectRecords(this.data, this.registry, this.resource, (q) =>
      q.andWhere(`t.id = ${q.param(id)}::uuid`),
    );
    if (!match) throw new NotFoundError();
    return match.record;
  }

  /** Field codes of a workspace's default layout of `entity` (its code is the entity), if any. */
  defaultLayout(workspaceId: string, entity: string): Promise<string[] | null> {
    return this.store.defaultLayout(this.dataSource, workspaceId, entity);
  }

  async create(principal: Principal, body: unknown): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const layout = em.create(FieldsLayout);
      await this.write(em, layout, body, 'post', principal);
      return layout.id;
    });
  }

  async replace(principal: Principal, id: string, body: unknown): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const layout = await this.store.loadLocked(em, id);
      if (!layout) throw new NotFoundError();
      await this.write(em, layout, body, 'put', principal);
    });
  }

  async remove(principal: Principal, id: string): Promise<void> {
    const workspaceId = await this.store.workspaceOf(this.dataSource, id);
    if (!workspaceId) throw new NotFoundError();
    assertWritable(principal, workspaceId);
    await this.store.remove(this.dataSource, id);
  }

  private async write(
    em: EntityManager,
    layout: FieldsLayout,
    body: unknown,
    operation: 'post' | 'put',
    principal: Principal,
  ): Promise<void> {
    const { violations } = await this.denormalizer.apply(
      this.resource,
      layout as unknown as Record<string, unknown>,
      body,
      operation,
      principal,
    );
    assertWritable(principal, layout.workspace?.id);
    // PUT replaces: no list means an empty layout.
    if (operation === 'put' && !('fields' in (body as object))) layout.fields = [];
    layout.fields ??= [];
    const all: Violation[] = [...violations];
    const reported = new Set(violations.map((v) => v.propertyPath));
    for (const v of await validateEntity(layout, operation))
      if (!reported.has(v.propertyPath)) all.push(v);
    if (all.length === 0) all.push(...(await this.rules(em, layout)));
    if (all.length > 0) throw new ValidationError(all);
    await this.store.save(em, layout);
  }

  private async rules(em: EntityManager, layout: FieldsLayout): Promise<Violation[]> {
    const out: Violation[] = [];
    const workspaceId = layout.workspace!.id;
    const taken = await this.store.codeTaken(em, {
      workspaceId,
      code: layout.code,
      id: layout.id ?? null,
    });
    if (taken)
      out.push({
        propertyPath: 'code',
        message: 'This code is already used by another layout of this workspace.',
        code: ViolationCodes.unique,
      });
    const known = new Set([
      ...this.fields.primary(layout.entity).map((f) => f.code as string),
      ...(await this.fieldStore.codes(em, workspaceId, layout.entity)),
    ]);
    const seen = new Set<string>();
    layout.fields.forEach((code, i) => {
      if (!known.has(code))
        out.push({
          propertyPath: `fields[${i}]`,
          message: `The field "${code}" does not exist for ${layout.entity}.`,
          code: ViolationCodes.invalid,
        });
      else if (seen.has(code))
        out.push({
          propertyPath: `fields[${i}]`,
          message: `The field "${code}" is listed twice.`,
          code: ViolationCodes.unique,
        });
      seen.add(code);
    });
    return out;
  }
}
