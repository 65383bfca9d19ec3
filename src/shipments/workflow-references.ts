import type { EntityManager } from 'typeorm';
import { Violation, ViolationCodes } from '../common/errors/api-errors';

/** The workflow references of shipments and shipment items. */
export const WORKFLOW_REFERENCES = ['externalSourceIntegration', 'fulfillmentIntegration'] as const;

type WithWorkflowReferences = Partial<
  Record<(typeof WORKFLOW_REFERENCES)[number], { id: string } | null>
>;

/**
 * Workflow references must name workflows of the record's own workspace. The shared layer has
 * already refused workflows the caller cannot see (422 "Item not found"); this catches a
 * workflow of another workspace the caller also belongs to.
 */
export async function checkWorkflowReferences(
  em: EntityManager,
  workspaceId: string,
  record: WithWorkflowReferences,
  owner: 'shipment' | 'shipment item',
): Promise<Violation[]> {
  const given = WORKFLOW_REFERENCES.filter((name) => record[name]?.id);
  if (given.length === 0) return [];
  const ids = given.map((name) => record[name]!.id);
  const rows: Array<{ id: string; workspace_id: string }> = await em.query(
    'SELECT id, workspace_id FROM workflow WHERE id = ANY($1::uuid[])',
    [ids],
  );
  const workspaceOf = new Map(rows.map((r) => [r.id, r.workspace_id]));
  return given
    .filter((name) => workspaceOf.get(record[name]!.id) !== workspaceId)
    .map((name) => ({
      propertyPath: name,
      message: `The workflow must belong to the workspace of the ${owner}.`,
      code: ViolationCodes.invalid,
    }));
}
