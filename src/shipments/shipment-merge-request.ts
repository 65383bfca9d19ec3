import {
  NotFoundError,
  ValidationError,
  ViolationCodes,
  type Violation,
} from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { typeError } from '../hydra/write/denormalizer';
import { stringList } from '../lookups/request-fields';

/** Duplicates one merge may fold into a shipment. */
export const MAX_MERGED = 100;

export interface MergeRequest {
  target: string;
  /** The duplicates, deduplicated in the given order. */
  shipments: string[];
  /**
   * The store plugin's form: the duplicates are the target workspace's other shipments with
   * this tracking number, and the target takes the number after the merge.
   */
  trackingNumber?: string;
  /** The plugin's form: the workspace the target must belong to. */
  workspaceId?: string;
}

/** A shipment id from an id or a /shipments IRI; 404 for anything else, like a missing one. */
function shipmentId(value: string): string {
  const trimmed = value.trim();
  const id = identifierFrom(trimmed);
  if (!id || (trimmed.includes('/') && !/^\/shipments\/[^/]+$/.test(trimmed))) {
    throw new NotFoundError();
  }
  return id;
}

/**
 * `{"target": <id or IRI>, "shipments": [<ids or IRIs>]}`: 400 for wrong types, 422 for a
 * missing target, an empty or too long list, or the target among the merged, 404 for a
 * value that is no shipment id.
 */
export function mergeRequest(body: Record<string, unknown>): MergeRequest {
  if (body.target === undefined || body.target === null || body.target === '') {
    throw ValidationError.of('target', 'This value should not be blank.', ViolationCodes.notBlank);
  }
  if (typeof body.target !== 'string') throw typeError('target', 'string', body.target);
  if (typeof body.trackingNumber === 'string' && body.trackingNumber.trim() !== '') {
    const workspace = typeof body.workspaceId === 'string' ? body.workspaceId.trim() : '';
    return {
      target: shipmentId(body.target),
      shipments: [],
      trackingNumber: body.trackingNumber.trim(),
      ...(workspace ? { workspaceId: identifierFrom(workspace) ?? workspace } : {}),
    };
  }
  if (body.shipments === undefined || body.shipments === null) {
    throw ValidationError.of(
      'shipments',
      'This value should not be blank.',
      ViolationCodes.notBlank,
    );
  }
  const values = stringList(body.shipments, 'shipments');
  if (values.length === 0 || values.length > MAX_MERGED) {
    throw ValidationError.of(
      'shipments',
      values.length === 0
        ? 'This collection should contain 1 element or more.'
        : `This collection should contain ${MAX_MERGED} elements or less.`,
      values.length === 0 ? ViolationCodes.tooShort : ViolationCodes.tooLong,
    );
  }
  const target = shipmentId(body.target);
  const shipments: string[] = [];
  const violations: Violation[] = [];
  values.forEach((value, i) => {
    const id = shipmentId(value);
    if (id === target) {
      violations.push({
        propertyPath: `shipments[${i}]`,
        message: 'The target shipment cannot be merged into itself.',
        code: ViolationCodes.invalid,
      });
    } else if (!shipments.includes(id)) shipments.push(id);
  });
  if (violations.length) throw new ValidationError(violations);
  return { target, shipments };
}
