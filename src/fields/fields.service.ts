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
import { itemIdentifier } from '../hydra/core/identifiers';
import type { ResourceMeta } from '../hydra/core/resource-meta';
import { ResourceRegistry } from '../hydra/metadata/resource-registry';
import type { QueryParams } from '../hydra/core/query-params';
import { SqlQuery } from '../hydra/core/sql-query';
import type { ApiRecord } from '../hydra/core/api-record';
import { validateEntity } from '../hydra/validation/validate-entity';
import { Denormalizer, typeError } from '../hydra/write/denormalizer';
import {
  CUSTOM_FIELD_ENTITIES,
  SelectOptions,
  parseValidationRules,
  selectChoices,
  validateCustomFieldValue,
} from './custom-field-values';
import {
  StoredRecord,
  ambiguousCode,
  assertWritable,
  selectRecords,
  visibleRecords,
} from './code-addressed';
import { CustomFieldValuesStore } from './custom-field-values-store';
import { FieldStore } from './field-store';
import { Field } from './field.entity';
import { primaryFields } from './primary-fields';

/** The stored row behind a record (its uuid), for writes. */
export type FieldMatch =
  { primary: false; id: string; record: ApiRecord } | { primary: true; record: ApiRecord };

/**
 * PUT replaces: members left out go back to empty; `title` is required (left out, it is
 * blank); `fieldType` is kept when left out, as the reference's PUT body carries only the title.
 */
const RESET_ON_PUT: Array<[keyof Field, unknown]> = [
  ['title', ''],
  ['readonly', null],
  ['sorting', null],
  ['selectOptions', null],
  ['visibleExpr', null],
  ['validation', null],
  ['default', null],
  ['placeholder', null],
  ['refreshOnChange', null],
  ['helperText', null],
  ['tags', []],
  ['options', []],
];

/**
 * Custom field definitions: look-up by code within the caller's workspaces (narrowed by the
 * `workspace` and `entity` query parameters), the write pipeline, and the definition rules.
 */
@Injectable()
export class FieldsService {
  private readonly primaryCache = new Map<string, ApiRecord[]>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: ResourceRegistry,
    private readonly data: DataProvider,
    private readonly denormalizer: Denormalizer,
    private readonly store: FieldStore,
    private readonly values: CustomFieldValuesStore,
  ) {}

  get resource(): ResourceMeta {
    return this.registry.get(Field);
  }

  /** The resource an `entity` parameter names (`orders`, `credentials.smtp` -> credentials). */
  entityResource(entity: string): ResourceMeta | null {
    const base = entity.split('.')[0];
    if (!/^[a-z_]+$/.test(base)) return null;
    return this.registry.all().find((r) => r.path === `/${base}`) ?? null;
  }

  /** Built-in fields of an entity; [] when it has no resource. */
  primary(entity: string): ApiRecord[] {
    const base = entity.split('.')[0];
    let fields = this.primaryCache.get(base);
    if (!fields) {
      const resource = this.entityResource(base);
      fields = resource ? primaryFields(this.registry, resource, base) : [];
      this.primaryCache.set(base, fields);
    }
    return fields;
  }

  /** Stored fields visible to the caller, narrowed by the query, in creation order. */
  custom(
    principal: Principal,
    params: QueryParams,
    extra?: (query: SqlQuery) => void,
  ): Promise<StoredRecord[]> {
    return visibleRecords(this.data, this.registry, this.resource, principal, params, extra);
  }

  /** A row the caller just wrote, read back (the write checked its tenancy). */
  async record(id: string): Promise<ApiRecord> {
    const [match] = await selectRecords(this.data, this.registry, this.resource, (query) =>
      query.andWhere(`t.id = ${query.param(id)}::uuid`),
    );
    if (!match) throw new NotFoundError();
    return match.record;
  }

  /**
   * The field `/fields/{code}` means: a custom field of the caller's workspaces (the
   * `workspace` and `entity` parameters pick one when several have the code), else a built-in
   * field. 404 when none, 400 when the code stays ambiguous.
   */
  async find(principal: Principal, code: string, params: QueryParams): Promise<FieldMatch> {
    // A segment no code can be (empty, too long, a NUL) names nothing, like an unknown code.
    if (itemIdentifier(this.resource, code) === null) throw new NotFoundError();
    const custom = await this.custom(principal, params, (q) =>
      q.andWhere(`t.code = ${q.param(code)}`),
    );
    if (custom.length === 1) return { primary: false, ...custom[0] };
    if (custom.length > 1) throw ambiguousCode(code);
    const entity = params.get('entity');
    const candidates = (entity ? [entity] : [...CUSTOM_FIELD_ENTITIES])
      .flatMap((e) => this.primary(e))
      .filter((f) => f.code === code);
    if (candidates.length === 1) return { primary: true, record: candidates[0] };
    if (candidates.length > 1) throw ambiguousCode(code);
    throw new NotFoundError();
  }

  async create(principal: Principal, body: unknown): Promise<string> {
    return this.dataSource.transaction(async (em) => {
      const field = em.create(Field);
      await this.write(em, field, body, 'post', principal);
      return field.id;
    });
  }

  async replace(principal: Principal, id: string, body: unknown): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const field = await this.store.loadLocked(em, id);
      if (!field) throw new NotFoundError();
      await this.write(em, field, body, 'put', principal);
    });
  }

  /** Deletes the definition and its values from the records of its entity. */
  async remove(principal: Principal, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const row = await this.store.remove(em, id);
      if (!row) throw new NotFoundError();
      // Throwing here rolls the delete back.
      assertWritable(principal, row.workspace_id);
      const resource = this.entityResource(row.entity);
      if (resource) await this.values.drop(em, resource, row.workspace_id, row.code);
    });
  }

  private async write(
    em: EntityManager,
    field: Field,
    body: unknown,
    operation: 'post' | 'put',
    principal: Principal,
  ): Promise<void> {
    const resource = this.resource;
    const { violations } = await this.denormalizer.apply(
      resource,
      field as unknown as Record<string, unknown>,
      body,
      operation,
      principal,
    );
    assertWritable(principal, field.workspace?.id);
    const input = body as Record<string, unknown>;
    if (operation === 'put')
      for (const [key, empty] of RESET_ON_PUT)
        if (!(key in input)) (field as unknown as Record<string, unknown>)[key] = empty;
    if (field.selectOptions !== null && field.selectOptions !== undefined)
      field.selectOptions = normalizeSelectOptions(field.selectOptions);
    field.tags ??= [];
    field.options ??= [];
    const all: Violation[] = [...violations];
    const reported = new Set(violations.map((v) => v.propertyPath));
    for (const v of await validateEntity(field, operation))
      if (!reported.has(v.propertyPath)) all.push(v);
    if (all.length === 0) all.push(...(await this.rules(em, field)));
    if (all.length > 0) throw new ValidationError(all);
    await this.store.save(em, field);
  }

  /** Definition rules beyond single-property constraints. */
  private async rules(em: EntityManager, field: Field): Promise<Violation[]> {
    const out: Violation[] = [];
    if (this.primary(field.entity).some((p) => p.code === field.code))
      out.push({
        propertyPath: 'code',
        message: 'This code is used by a built-in field of this entity.',
        code: ViolationCodes.unique,
      });
    const taken = await this.store.codeTaken(em, {
      workspaceId: field.workspace!.id,
      entity: field.entity,
      code: field.code,
      id: field.id ?? null,
    });
    if (taken)
      out.push({
        propertyPath: 'code',
        message: 'This code is already used by another field of this entity.',
        code: ViolationCodes.unique,
      });
    const { unknown } = parseValidationRules(field.validation);
    for (const rule of unknown)
      out.push({
        propertyPath: 'validation',
        message: `Unknown validation rule "${rule}".`,
        code: ViolationCodes.invalid,
      });
    if (field.selectOptions?.url && !/^https?:\/\/\S+$/.test(field.selectOptions.url))
      out.push({
        propertyPath: 'selectOptions.url',
        message: 'This value is not a valid URL.',
        code: ViolationCodes.invalid,
      });
    if (field.fieldType === 'select' && (selectChoices(field) ?? ['remote']).length === 0)
      out.push({
        propertyPath: 'options',
        message: 'A select field needs options (or selectOptions.options, or selectOptions.url).',
        code: ViolationCodes.notBlank,
      });
    if (field.default != null && field.default !== '' && unknown.length === 0)
      out.push(
        ...validateCustomFieldValue({ ...field, validation: null }, field.default, 'default'),
      );
    return out;
  }
}

/** `{keyField, titleField, options, url}`; other members dropped, wrong types 400. */
export function normalizeSelectOptions(raw: unknown): SelectOptions {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw typeError('selectOptions', 'array', raw);
  const input = raw as Record<string, unknown>;
  const text = (key: 'keyField' | 'titleField' | 'url') => {
    const v = input[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw typeError(`selectOptions.${key}`, 'string', v);
    return v;
  };
  let options: string[] | null = null;
  if (input.options !== undefined && input.options !== null) {
    if (!Array.isArray(input.options))
      throw typeError('selectOptions.options', 'array', input.options);
    const bad = input.options.find((o) => typeof o !== 'string');
    if (bad !== undefined) throw typeError('selectOptions.options[]', 'string', bad);
    options = input.options as string[];
  }
  return { keyField: text('keyField'), titleField: text('titleField'), options, url: text('url') };
}
