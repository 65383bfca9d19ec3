import { BadRequestError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { QueryParams } from '../hydra/core/query-params';
import { typeError } from '../hydra/write/denormalizer';
import { optionalString } from '../lookups/request-fields';
import { EXPORT_ENTITIES, EXPORT_FORMATS } from './export.entity';

export interface ExportRequest {
  entity: (typeof EXPORT_ENTITIES)[number];
  format: (typeof EXPORT_FORMATS)[number];
  /** Query parameters of the collection, in order. */
  filters: Array<[string, string]>;
}

/** Paging belongs to a page, not to an export: every matching row is written. */
const PAGING = new Set(['page', 'itemsPerPage', 'pagination']);

type Scalar = string | number | boolean;

function scalar(value: unknown, attribute: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value as Scalar);
  throw typeError(attribute, 'string', value);
}

/**
 * The collection's query parameters from `filters`, an object as a client builds one:
 * `{"trackingStatus": ["delivered", "expired"], "createdAt": {"after": "2024-01-01"},
 * "order": {"createdAt": "asc"}, "address.city": "Paris"}` (arrays become `name[]`, objects
 * `name[key]`), or a query string `"trackingStatus[]=delivered&order[createdAt]=asc"`; or
 * from `params`, the reference's array of `name=value` strings. Unknown parameters are kept
 * and ignored when the collection runs, as the collection itself does.
 */
export function exportFilters(body: Record<string, unknown>): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const { filters, params } = body;
  if (filters !== undefined && filters !== null) {
    if (typeof filters === 'string') {
      pairs.push(
        ...(QueryParams.fromUrl(`?${filters.replace(/^\?/, '')}`).pairs as Array<[string, string]>),
      );
    } else if (typeof filters === 'object' && !Array.isArray(filters)) {
      for (const [name, value] of Object.entries(filters)) {
        if (Array.isArray(value)) {
          const key = name.endsWith('[]') ? name : `${name}[]`;
          value.forEach((v, i) => pairs.push([key, scalar(v, `filters.${name}[${i}]`)]));
        } else if (value !== null && typeof value === 'object') {
          for (const [sub, v] of Object.entries(value)) {
            pairs.push([`${name}[${sub}]`, scalar(v, `filters.${name}.${sub}`)]);
          }
        } else if (value !== null && value !== undefined) {
          pairs.push([name, scalar(value, `filters.${name}`)]);
        }
      }
    } else {
      throw new BadRequestError(
        `The type of the "filters" attribute must be "object", "${Array.isArray(filters) ? 'array' : typeof filters}" given.`,
      );
    }
  }
  if (params !== undefined && params !== null) {
    if (!Array.isArray(params)) throw typeError('params', 'array', params);
    params.forEach((p, i) => {
      if (typeof p !== 'string') throw typeError(`params[${i}]`, 'string', p);
      pairs.push(
        ...(QueryParams.fromUrl(`?${p.replace(/^\?/, '')}`).pairs as Array<[string, string]>),
      );
    });
  }
  return pairs.filter(([name]) => name !== '' && !PAGING.has(name));
}

/** `{"entity": "shipments"|"orders", "format"?: "csv", "filters"?, "params"?}`. */
export function exportRequest(body: Record<string, unknown>): ExportRequest {
  const entity = optionalString(body, 'entity');
  if (entity === undefined) {
    throw ValidationError.of('entity', 'This value should not be blank.', ViolationCodes.notBlank);
  }
  if (!(EXPORT_ENTITIES as readonly string[]).includes(entity)) {
    throw ValidationError.of(
      'entity',
      `The value you selected is not a valid choice. Choose one of: ${EXPORT_ENTITIES.join(', ')}.`,
      ViolationCodes.choice,
    );
  }
  const format = optionalString(body, 'format')?.toLowerCase() ?? 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw ValidationError.of(
      'format',
      `The value you selected is not a valid choice. Choose one of: ${EXPORT_FORMATS.join(', ')}.`,
      ViolationCodes.choice,
    );
  }
  return {
    entity: entity as ExportRequest['entity'],
    format: format as ExportRequest['format'],
    filters: exportFilters(body),
  };
}
