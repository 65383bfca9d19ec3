import 'reflect-metadata';
import type { FilterDeclaration } from '../core/filter';
import { registerResourceClass } from './declared-resources';
import type {
  ApiPropertyOptions,
  ApiResourceOptions,
  NestedCollectionRoute,
} from '../core/declaration';

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
