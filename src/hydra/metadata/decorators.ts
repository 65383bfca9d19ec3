import 'reflect-metadata';
import type { AccessLevel } from '../../access/access-level';
import type { FilterDeclaration } from '../filters/filter';
import { registerResourceClass } from './declared-resources';

export type Operation = 'list' | 'get' | 'post' | 'put' | 'delete';
export type WriteOperation = 'post' | 'put';

/**
 * How a row reaches its tenant. Every table owned by a workspace carries a
 * `workspace_id` column (denormalised on child tables) so the scope is one
 * indexed comparison, never a chain of joins.
 */
export type TenancyRule =
  | { workspace: string } // property holding the workspace reference
  | { team: string } // property holding the team reference
  | { user: string } // property holding the owning user
  | { self: 'workspace' | 'team' | 'user' }
  /** Visible when any of the rules admits the row (e.g. uploader or attached workspace). */
  | { anyOf: Array<Exclude<TenancyRule, 'public' | { anyOf: unknown }>> }
  | 'public';

export interface NestedCollectionRoute {
  /** Express-style path, e.g. `/workspaces/:id/shipments`. */
  path: string;
  /** Route parameter -> property path it constrains (`workspace`, `workspace.team`). */
  params: Record<string, string>;
  /** Upper bound of itemsPerPage on this route when it differs from the resource's. */
  maxItemsPerPage?: number;
}

/**
 * The two nested collection routes every workspace-owned resource has: under
 * its workspace, and under that workspace's team. `tail` may hold further
 * segments (`notes/:notes/reminders`) with their params in `extra`.
 */
export function workspaceRoutes(
  tail: string,
  extra: Record<string, string> = {},
): NestedCollectionRoute[] {
  return [
    { path: `/workspaces/:id/${tail}`, params: { id: 'workspace', ...extra } },
    {
      path: `/teams/:id/workspaces/:workspaces/${tail}`,
      params: { id: 'workspace.team', workspaces: 'workspace', ...extra },
    },
  ];
}

export interface ApiResourceOptions {
  /** `@type`, `/contexts/<shortName>`; defaults to the class name. */
  shortName?: string;
  /** Collection path, e.g. `/shipments`; items live at `<path>/:id`. */
  path: string;
  operations?: Operation[];
  nested?: NestedCollectionRoute[];
  tenancy: TenancyRule;
  /**
   * With tenancy 'public': every caller sees every row (a shared catalogue), but a bearer token
   * is still required. Without it a public resource answers anonymous requests too.
   */
  requireToken?: boolean;
  /** Upper bound of itemsPerPage (500 unless the spec says otherwise). */
  maxItemsPerPage?: number;
  /** Stable default order; the id is always appended as the final tie-breaker. */
  defaultOrder?: Record<string, 'ASC' | 'DESC'>;
  description?: string;
  /** Database unique constraint name -> property reported in the 422 violation. */
  uniqueConstraints?: Record<string, { property: string; message?: string }>;
  /** Name of the identifier property used in IRIs (default `id`). */
  identifier?: string;
  /**
   * PUT replaces the writable state (API Platform's standard PUT): attributes writable on PUT
   * that the body leaves out go back to their defaults, as on POST (the column default, else
   * null; `[]` for to-many references), and an embedded object given is replaced whole. Without
   * it PUT changes only the attributes the body gives (write/put-replace.ts).
   */
  replaceOnPut?: boolean;
  /**
   * The access an operation needs when it differs from the tenancy's default
   * (metadata/resource-access.ts), e.g. `{ write: 'team:admin' }` for team credentials.
   */
  access?: Partial<Record<Operation | 'read' | 'write', AccessLevel>>;
  /**
   * Whether tokens granted to third-party applications (authorization code) may call the
   * operations (403 otherwise), when it differs from the default of their access level
   * (`delegatedByDefault`): `false` for all of them, or per operation / `read` / `write`
   * (`{ write: false }`). See metadata/resource-access.ts.
   */
  delegated?: boolean | Partial<Record<Operation | 'read' | 'write', boolean>>;
  /**
   * Body attributes a service reads itself (`ctx.body`) on an operation, never stored as given
   * nor read back (a new password and the current one): JSON schemas, documented `writeOnly`
   * in the operation's request schema.
   */
  writeOnly?: Partial<Record<WriteOperation, Record<string, Record<string, unknown>>>>;
  /**
   * Properties (text or id columns of the table) whose per-value row counts are maintained by
   * triggers, per tenant (collection/maintained-counts.ts): a list filtered by nothing, or by
   * one of them with `p=v` / `p[]=...`, takes `hydra:totalItems` from the counts instead of
   * `count(*)`. A migration installs the triggers (`installCountsSql`); until it has, the
   * property is counted with count(*).
   */
  counts?: string[];
}

export interface ApiPropertyOptions {
  readable?: boolean;
  /** Operations whose body may set the property; read-only when absent. */
  writable?: WriteOperation[];
  /** Render a to-one relation as an embedded object instead of an IRI. */
  embed?: boolean;
  /** Accept an embedded object on these operations where an IRI is expected. */
  acceptObjectOn?: WriteOperation[];
  /** With `embed`: the target's properties shown in the embedded object (default: all its columns). */
  embedProperties?: string[];
  /** Computed read-only value: SQL with `{a}` standing for the row alias. */
  sql?: string;
  /** Value type where the column cannot tell (computed values, json columns). */
  type?: ApiValueType;
  /** Element type for arrays. */
  items?: ApiValueType;
  nullable?: boolean;
  description?: string;
  example?: unknown;
  /** Exclude from the CSV export (large or nested collections). */
  csv?: boolean;
  /**
   * Left out of the resource's own collection (not of its nested routes, items or writes)
   * unless `groups[]` names the item group `get<ShortName>`: the reference's lighter list
   * shapes (`Carrier-Getc`, `Order-Getxc`). See serialization-groups.ts.
   */
  itemOnly?: boolean;
  /** Name of a registered PropertyValidator run on writes that set the property. */
  validatedBy?: string;
}

export type ApiValueType =
  'string' | 'integer' | 'number' | 'decimal' | 'boolean' | 'datetime' | 'object' | 'array';

export const RESOURCE_KEY = Symbol('hydra:resource');
export const PROPERTIES_KEY = Symbol('hydra:properties');
export const FILTERS_KEY = Symbol('hydra:filters');

export function ApiResource(options: ApiResourceOptions): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(RESOURCE_KEY, options, target);
    registerResourceClass(target);
  };
}

export function ApiProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  return (target, propertyKey) => {
    const ctor = target.constructor;
    const own: Map<string, ApiPropertyOptions> = Reflect.hasOwnMetadata(PROPERTIES_KEY, ctor)
      ? Reflect.getOwnMetadata(PROPERTIES_KEY, ctor)
      : new Map(Reflect.getMetadata(PROPERTIES_KEY, ctor) ?? []);
    own.set(String(propertyKey), options);
    Reflect.defineMetadata(PROPERTIES_KEY, own, ctor);
  };
}

/** Declares filters in order; the order drives `hydra:search` and OpenAPI. */
export function ApiFilter(...filters: FilterDeclaration[]): ClassDecorator {
  return (target) => {
    const existing: FilterDeclaration[] = Reflect.getOwnMetadata(FILTERS_KEY, target) ?? [];
    // Class decorators apply bottom-up; prepend so source order is kept.
    Reflect.defineMetadata(FILTERS_KEY, [...filters, ...existing], target);
  };
}

export function getResourceOptions(target: Function): ApiResourceOptions | undefined {
  return Reflect.getOwnMetadata(RESOURCE_KEY, target);
}

export function getPropertyOptions(target: Function): Map<string, ApiPropertyOptions> {
  return Reflect.getMetadata(PROPERTIES_KEY, target) ?? new Map();
}

export function getFilterDeclarations(target: Function): FilterDeclaration[] {
  return Reflect.getOwnMetadata(FILTERS_KEY, target) ?? [];
}
