import { Controller } from '@nestjs/common';
import { visibleFromInput } from '../access/access-target';
import type { Principal } from '../access/principal';
import type { ActionContext } from '../hydra/actions/action-declaration';
import { Action } from '../hydra/actions/action.decorator';
import { typedJson } from '../hydra/actions/action-result';
import { Workspace } from '../workspaces/workspace.entity';
import { Import } from './import.entity';
import { ImportInput } from './import.input';
import { ImportPreUpload } from './import.output';
import { ImportsService } from './imports.service';

/** Imports write the workspace they name; one the caller cannot see is the reference's 422. */
const importWorkspace = visibleFromInput(Workspace, 'workspace');

/** `POST /imports/pre-upload` and `POST /imports`; progress at `GET /imports/{id}`. */
@Controller()
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Action({
    uploads: true,
    method: 'POST',
    path: '/imports/pre-upload',
    summary: 'Previews a CSV import: columns, first rows and a suggested mapping.',
    description:
      'Answers the headers, delimiter, row count, first rows, suggested column mapping and the entity’s fields of a CSV (`file` or `content`) for the `workspace`. Nothing is stored.',
    input: ImportInput,
    output: { json: ImportPreUpload },
    access: 'workspace:write',
    workspace: importWorkspace,
  })
  preUpload(input: ImportInput, _principal: Principal, context: ActionContext<'workspace?'>) {
    const preview = this.imports.preview(input, context.files, context.workspaceId);
    return typedJson(context, 'ImportPreUpload', preview);
  }

  @Action({
    uploads: true,
    method: 'POST',
    path: '/imports',
    summary: 'Starts a CSV import of shipments or orders.',
    description:
      'Stores the import of a CSV (`file` or `content`) into the `workspace` with its checked `mapping` (default: the suggested one), queues it, and answers the Import (201). Each row goes through the resource’s own write rules.',
    input: ImportInput,
    output: { item: Import },
    status: 201,
    access: 'workspace:write',
    workspace: importWorkspace,
  })
  create(input: ImportInput, principal: Principal, context: ActionContext<'workspace?'>) {
    return this.imports.start(principal, input, context.files, context.workspaceId);
  }
}
