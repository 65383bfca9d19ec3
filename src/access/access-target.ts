import { NotFoundError } from '../common/errors/api-errors';
import type { Principal } from './principal';

/**
 * Where an action finds the workspace or team its access level is about. A locator answers
 * the id (or ids) to check, or undefined when the request names none (an optional
 * `workspaceId`: the action then works across the caller's own workspaces, which the
 * handler's queries are scoped to). References given as ids or IRIs are resolved within the
 * caller's tenancy: one the caller cannot see is a 404, like a missing one.
 */
export type TargetLocator = (
  ctx: LocateContext,
) => Promise<string | readonly string[] | undefined> | string | readonly string[] | undefined;

export interface LocateContext {
  readonly input: Record<string, unknown>;
  readonly params: Readonly<Record<string, string>>;
  readonly principal: Principal;
  readonly targets: AccessTargetResolver;
}

/** The look-ups locators need; implemented over the resource declarations (hydra). */
export interface AccessTargetResolver {
  /** The id of the visible record of `resource` that `reference` (id or IRI) names; 404 else. */
  reference(resource: Function, reference: string): Promise<string>;
  /**
   * The workspace (or team) ids owning the records the references (ids or IRIs) name, in one
   * query; 404 when one of them is not a visible record.
   */
  ownersOf(
    resource: Function,
    references: readonly string[],
    scope: 'workspace' | 'team',
  ): Promise<string[]>;
}

/** The route parameter is the workspace's (or team's) own id or code. */
export const fromParam =
  (name: string, resource?: Function): TargetLocator =>
  ({ params, targets }) =>
    resource ? targets.reference(resource, params[name] ?? '') : params[name];

/** The route parameter names a record; the target is the record's workspace (or team). */
export const ownerOfParam =
  (resource: Function, name = 'id', scope: 'workspace' | 'team' = 'workspace'): TargetLocator =>
  ({ params, targets }) =>
    targets.ownersOf(resource, [params[name] ?? ''], scope);

/**
 * An input attribute holding the workspace or team (id or IRI); the first of `names` given
 * wins (`workspaceId`, then `workspace`). Undefined when none is given.
 */
export const fromInput =
  (resource: Function, ...names: string[]): TargetLocator =>
  ({ input, targets }) => {
    for (const name of names) {
      const value = input[name];
      if (typeof value === 'string' && value.trim() !== '')
        return targets.reference(resource, value.trim());
    }
    return undefined;
  };

/**
 * Like `fromInput`, for inputs where a reference the caller cannot see is the reference
 * service's 422 violation ("Item not found for ...") rather than a 404: such a reference
 * locates nothing here, and the handler reports it.
 */
export const visibleFromInput =
  (resource: Function, ...names: string[]): TargetLocator =>
  async (ctx) => {
    try {
      return await fromInput(resource, ...names)(ctx);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };

/**
 * An input attribute listing records (ids or IRIs); the target is every workspace (or team)
 * owning them. `resource` may depend on the input (`{ of: (input) => ... }`: batches name
 * their entity).
 */
export const ownersOfInput =
  (
    resource: Function | { of: (input: Record<string, unknown>) => Function | undefined },
    attribute: string,
    scope: 'workspace' | 'team' = 'workspace',
  ): TargetLocator =>
  async ({ input, targets }) => {
    const target = typeof resource === 'function' ? resource : resource.of(input);
    const list = input[attribute];
    if (!target || !Array.isArray(list) || list.length === 0) return undefined;
    return targets.ownersOf(target, list.map(String), scope);
  };

/** Several locators: the targets of all of them. */
export const allOf =
  (...locators: TargetLocator[]): TargetLocator =>
  async (ctx) => {
    const found: string[] = [];
    for (const locate of locators) {
      const ids = await locate(ctx);
      if (ids !== undefined) found.push(...(typeof ids === 'string' ? [ids] : ids));
    }
    return found.length ? [...new Set(found)] : undefined;
  };

/**
 * A locator whose reference the caller cannot see answers no target instead of 404: the
 * handler then refuses it its own way (the reference service answers such e-mail
 * notification actions with a 422 "Item not found"). A visible one is checked as usual.
 */
export const unlessInvisible =
  (locate: TargetLocator): TargetLocator =>
  async (ctx) => {
    try {
      return await locate(ctx);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  };
