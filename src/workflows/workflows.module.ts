import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { EventsModule } from '../events/events.module';
import { ResourceController } from '../hydra/controller/resource-controller';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WorkflowActions } from './workflow-actions';
import { WorkflowActionsController } from './workflow-actions.controller';
import { WorkflowRun } from './workflow-run.entity';
import { Workflow } from './workflow.entity';
import { IntegrationData } from './integration-data';
import { WorkflowsService } from './workflows.service';

export class WorkflowsController extends ResourceController(Workflow, WorkflowsService) {}
export class WorkflowRunsController extends ResourceController(WorkflowRun) {}

/** /workflows (+ nested), runs, execute and submit-suggestion. */
@Module({
  imports: [CredentialsModule, WebhooksModule, EventsModule],
  // The actions first: their paths must not be taken for `/workflows/:id`.
  controllers: [WorkflowActionsController, WorkflowsController, WorkflowRunsController],
  providers: [WorkflowsService, WorkflowActions, IntegrationData],
})
export class WorkflowsModule {}
