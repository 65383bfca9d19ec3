import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EventDeliveryStore } from '../events/event-delivery-store';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { moveNotesOf, removeNotesOfRecord } from '../notes/record-notes';
import { WorkflowRunStore } from './workflow-run-store';

/** What belongs to a workflow elsewhere: its runs, the notes on it, its pending deliveries. */
@Injectable()
export class WorkflowDependents {
  constructor(
    private readonly runs: WorkflowRunStore,
    private readonly deliveries: EventDeliveryStore,
  ) {}

  /**
   * A workflow moved to another workspace takes along its runs, and the notes on it and on its
   * runs (with their reminders and files), and drops its pending deliveries of the old
   * workspace's events.
   */
  async move(em: EntityManager, workflowId: string, workspaceId: string): Promise<void> {
    await this.runs.moveTo(em, workflowId, workspaceId);
    await moveNotesOf(em, 'workflows', [workflowId], workspaceId);
    await this.deliveries.dropOutside(em, workflowId, workspaceId);
  }

  /** Before a DELETE: the notes on the workflow and on its runs (deleted with it). */
  async removeNotes(ctx: WriteContext, workflowId: string): Promise<void> {
    await removeNotesOfRecord(ctx, workflowId);
  }
}
