import { getMetadataStorage } from 'class-validator';
import type { PropertyMeta, ResourceMeta } from '../hydra/core/resource-meta';
import type { ResourceRegistry } from '../hydra/metadata/resource-registry';
import { searchVariables } from '../hydra/metadata/search-variables';
import type { ApiRecord } from '../hydra/core/api-record';
import type { FieldType, SelectOptions } from './custom-field-values';

/** Properties that are not fields of the entity as a user sees it. */
const SKIPPED = new Set(['customFields']);
const TITLE_MEMBERS = ['title', 'name', 'code', 'trackingNumber', 'orderNumber'];

/** `trackingNumber` -> `Tracking number`, `address.countryIso2` -> `Address country iso2`. */
export function humanize(code: string): string {
  const words = code
    .replace(/\./g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

interface Described {
  fieldType: FieldType;
  selectOptions: SelectOptions | null;
  options: string[];
}

function describe(registry: ResourceRegistry, prop: PropertyMeta, name: string): Described {
  const plain = (fieldType: FieldType): Described => ({
    fieldType,
    selectOptions: null,
    options: [],
  });
  if (prop.kind === 'reference' || prop.kind === 'object') {
    const target = registry.get(prop.target!);
    const title = TITLE_MEMBERS.find((m) => target.byName.has(m)) ?? null;
    return {
      fieldType: 'select',
      selectOptions: { keyField: '@id', titleField: title, options: null, url: target.path },
      options: [],
    };
  }
  if (prop.kind === 'collection') return plain('array');
  switch (prop.type) {
    case 'datetime':
      return plain('date');
    case 'integer':
    case 'number':
    case 'decimal':
      return plain('number');
    case 'boolean':
      return { fieldType: 'select', selectOptions: null, options: ['true', 'false'] };
    case 'array':
      return plain('array');
    default:
      if (/email/i.test(name)) return plain('email');
      if (/phone/i.test(name)) return plain('phone');
      if (/(url|link)$/i.test(name)) return plain('link');
      return plain('text');
  }
}

/**
 * The built-in fields of an entity, described like custom fields (`primary: true`), generated
 * from the resource declaration: readable properties in declaration order (embedded objects
 * as dotted fields), writability from `writable`, `sorting` from the order filter, `required`
 * from NotBlank on POST. Nothing is listed by hand, so new properties appear by themselves.
 */
export function primaryFields(
  registry: ResourceRegistry,
  resource: ResourceMeta,
  entity: string,
): ApiRecord[] {
  const orderable = new Set(
    searchVariables(registry, resource)
      .filter((v) => v.variable.startsWith('order['))
      .map((v) => v.property),
  );
  const required = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(resource.target, '', false, false, ['post'])
      .filter((m) => m.name === 'notBlank' || m.name === 'notNull')
      .map((m) => m.propertyName),
  );
  const out: ApiRecord[] = [];
  const add = (prop: PropertyMeta, code: string, readonly: boolean) => {
    const d = describe(registry, prop, code);
    out.push({
      code,
      workspace: null,
      entity,
      title: humanize(code),
      fieldType: d.fieldType,
      readonly,
      sorting: orderable.has(code),
      selectOptions: d.selectOptions,
      visibleExpr: null,
      validation: required.has(code) ? 'required' : null,
      default: null,
      placeholder: null,
      refreshOnChange: null,
      helperText: prop.options.description ?? null,
      tags: [],
      options: d.options,
      primary: true,
    });
  };
  for (const prop of resource.properties) {
    if (!prop.readable || SKIPPED.has(prop.name)) continue;
    const readonly = prop.writable.size === 0;
    if (prop.kind === 'embedded') {
      for (const child of prop.children ?? [])
        if (child.readable) add(child, `${prop.name}.${child.name}`, readonly);
    } else add(prop, prop.name, readonly);
  }
  return out;
}
