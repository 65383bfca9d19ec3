import type { AccessLevel } from '../../access/access-level';

/**
 * The vocabulary of resource declarations (`@ApiResource`, `@ApiProperty`): what the
 * decorators of metadata/decorators.ts record and every part of the layer reads.
 */
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
  /**
   * The class documenting an object value (its `@Documented` attributes, as action outputs
   * are): for the docs only. An object property without one is an open map, allowed where
   * OPEN_MAPS (actions/open-maps.ts) names it.
   */
  of?: () => Function;
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
