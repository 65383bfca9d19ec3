import type { Principal } from '../access/principal';
import type { HydraApi } from '../hydra/controller/hydra-api';
import { NotFoundError } from '../hydra/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { Workspace } from '../workspaces/workspace.entity';

/** Reading the bodies of action endpoints (lookups, batches, exports). */

/** A string attribute, trimmed; undefined when absent, null or blank; 400 for other types. */
export function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw typeError(name, 'string', value);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An array of strings; 400 for anything else. */
export function stringList(value: unknown, attribute: string): string[] {
  if (!Array.isArray(value)) throw typeError(attribute, 'array', value);
  value.forEach((v, i) => {
    if (typeof v !== 'string') throw typeError(`${attribute}[${i}]`, 'string', v);
  });
  return value as string[];
}

/**
 * The workspace an action is limited to: `workspaceId` (the reference's name) or `workspace`,
 * as an id or IRI. Undefined when neither is given; 404 when it is missing or not the
 * caller's, exactly like a foreign record.
 */
export async function optionalWorkspace(
  api: HydraApi,
  principal: Principal,
  body: Record<string, unknown>,
): Promise<string | undefined> {
  const name =
    body.workspaceId !== undefined && body.workspaceId !== null ? 'workspaceId' : 'workspace';
  const reference = optionalString(body, name);
  if (reference === undefined) return undefined;
  const id = await api.data.resolveReference(api.resource(Workspace), principal, reference);
  if (!id) throw new NotFoundError();
  return id;
}
