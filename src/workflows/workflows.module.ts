import { Module } from '@nestjs/common';
import { CredentialsModule } from '../credentials/credentials.module';
import { CREDENTIALS_USES } from '../credentials/credentials-use';
import { EventsModule } from '../events/events.module';
import { ResourceController } from '../hydra/controller/resource-controller';
import { OrderItemsModule } from '../order-items/order-items.module';
import { OrdersModule } from '../orders/orders.module';
import { ProductsModule } from '../products/products.module';
import { ShipmentItemsModule } from '../shipment-items/shipment-items.module';
import { ShipmentsModule } from '../shipments/shipments.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { IntegrationData } from './integration-data';
import { WorkflowActions } from './workflow-actions';
import { WorkflowActionsController } from './workflow-actions.controller';
import { WorkflowCredentialsUse } from './workflow-credentials-use';
import { WorkflowDependents } from './workflow-dependents';
import { WorkflowExecutors } from './workflow-executors';
import { WorkflowRun } from './workflow-run.entity';
import { WorkflowStoresModule } from './workflow-stores.module';
import { Workflow } from './workflow.entity';
import { WorkflowsService } from './workflows.service';

export class WorkflowsController extends ResourceController(Workflow, WorkflowsService) {}
export class WorkflowRunsController extends ResourceController(WorkflowRun) {}

/** /workflows (+ nested), runs, execute and submit-suggestion. */
@Module({
  imports: [
    CredentialsModule,
    WebhooksModule,
    EventsModule,
    WorkflowStoresModule,
    WorkspacesModule,
    ShipmentsModule,
    ShipmentItemsModule,
    OrdersModule,
    OrderItemsModule,
    ProductsModule,
  ],
  // The actions first: their paths must not be taken for `/workflows/:id`.
  controllers: [WorkflowActionsController, WorkflowsController, WorkflowRunsController],
  providers: [
    WorkflowsService,
    WorkflowActions,
    IntegrationData,
    WorkflowDependents,
    WorkflowExecutors,
    // Credentials a workflow uses cannot be deleted.
    { provide: CREDENTIALS_USES, useClass: WorkflowCredentialsUse },
  ],
})
export class WorkflowsModule {}
