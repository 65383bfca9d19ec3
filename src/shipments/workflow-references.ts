import { Violation, ViolationCodes } from '../common/errors/api-errors';

/** The workflow references of shipments and shipment items. */
export const WORKFLOW_REFERENCES = ['externalSourceIntegration', 'fulfillmentIntegration'] as const;

type WithWorkflowReferences = Partial<
  Record<(typeof WORKFLOW_REFERENCES)[number], { id: string } | null>
>;

/** The ids of the workflows a record refers to. */
export function workflowIdsOf(record: WithWorkflowReferences): string[] {
  return WORKFLOW_REFERENCES.flatMap((name) => (record[name]?.id ? [record[name].id] : []));
}

/**
 * Workflow references must name workflows of the record's own workspace (`workspaces`: each
 * referred workflow's, WorkflowStore.workspacesOf). The shared layer has already refused
 * workflows the caller cannot see (422 "Item not found"); this catches a workflow of another
 * workspace the caller also belongs to.
 */
export function workflowReferenceViolations(
  record: WithWorkflowReferences,
  workspaceId: string,
  workspaces: ReadonlyMap<string, string>,
  owner: 'shipment' | 'shipment item',
): Violation[] {
  return WORKFLOW_REFERENCES.filter((name) => record[name]?.id)
    .filter((name) => workspaces.get(record[name]!.id) !== workspaceId)
    .map((name) => ({
      propertyPath: name,
      message: `The workflow must belong to the workspace of the ${owner}.`,
      code: ViolationCodes.invalid,
    }));
}
