import { Documented } from '../hydra/validation/documented';

/** The workflows run now and the runs they made. */
export class WorkflowExecution {
  @Documented({ type: 'array', items: 'string', required: true, description: 'Workflow IRIs.' })
  workflows!: string[];
  @Documented({ type: 'array', items: 'string', required: true, description: 'Workflow run IRIs.' })
  runs!: string[];
}

/** A suggestion of an integration, stored. */
export class WorkflowSuggestion {
  @Documented({ type: 'string', format: 'uuid', required: true }) id!: string;
  @Documented({ type: 'string', required: true }) comment!: string;
  @Documented({ type: 'string', format: 'date-time', required: true }) createdAt!: string;
}
