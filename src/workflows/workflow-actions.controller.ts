import { Controller } from '@nestjs/common';
import { visibleFromInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { Workspace } from '../workspaces/workspace.entity';
import { WorkflowActions } from './workflow-actions';
import { ExecuteWorkflowsInput, WorkflowSuggestionInput } from './workflow-actions.input';
import { WorkflowExecution, WorkflowSuggestion } from './workflow-actions.output';

/** `POST /workflows/execute` and `POST /workflows/submit-suggestion`. */
@Controller()
export class WorkflowActionsController {
  constructor(private readonly actions: WorkflowActions) {}

  @Action({
    method: 'POST',
    path: '/workflows/execute',
    summary: 'Runs the caller\u2019s executable workflows now.',
    description:
      'Attempts at once the deliveries that the enabled webhook and store workflows of `workspace` (or of every workspace the caller may write) hold, wait for or retry later, and queues a pull for store workflows run here. Answers `{workflows, runs}` (IRIs).',
    input: ExecuteWorkflowsInput,
    output: { json: WorkflowExecution },
    access: 'workspace:write',
    workspace: visibleFromInput(Workspace, 'workspace'),
  })
  async execute(
    input: ExecuteWorkflowsInput,
    principal: Principal,
    context: ActionContext<'workspace?'>,
  ) {
    const workspaceId = context.workspaceId;
    if (input.workspace !== undefined && input.workspace !== null && !workspaceId)
      throw ValidationError.of(
        'workspace',
        `Item not found for "${input.workspace}".`,
        ViolationCodes.invalid,
      );
    return typedJson(
      context,
      'WorkflowExecution',
      await this.actions.execute(principal, workspaceId),
    );
  }

  @Action({
    method: 'POST',
    path: '/workflows/submit-suggestion',
    summary: 'Suggests a new integration.',
    description:
      'Stores the caller\u2019s `comment` (trimmed, up to 5000 characters; 422 when blank or longer, 400 when not a string); answers `{id, comment, createdAt}`.',
    input: WorkflowSuggestionInput,
    output: { json: WorkflowSuggestion },
    access: 'user',
  })
  async submitSuggestion(
    input: WorkflowSuggestionInput,
    principal: Principal,
    context: ActionContext,
  ) {
    return typedJson(
      context,
      'WorkflowSuggestion',
      await this.actions.suggest(principal, input.comment),
    );
  }
}
