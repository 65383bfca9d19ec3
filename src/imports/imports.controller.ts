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

const INPUT =
  'The CSV comes as the multipart file `file` or the text `content`, with the `workspace` (id or IRI) and optionally the `entity` (shipments or orders; guessed from the columns otherwise). Needs write access to the workspace (read-only members: 403). 400 for wrong types, 422 for a blank or unknown workspace ("Item not found"), no CSV, an empty file, malformed CSV (at `file` or `content`) or an unknown entity.';

/** `POST /imports/pre-upload` and `POST /imports`; progress at `GET /imports/{id}`. */
@Controller()
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Action({
    uploads: true,
    method: 'POST',
    path: '/imports/pre-upload',
    summary: 'Previews a CSV import: columns, first rows and a suggested mapping.',
    description: `Answers the headers, delimiter, row count, a preview of the first rows, the suggested column mapping and the entity\u2019s fields; nothing is stored. ${INPUT}`,
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
    description: `Stores the import with its checked \`mapping\` ({column: field}, JSON text in a multipart form; default: the suggested one) and queues it; answers the Import (201), whose progress and refused rows \`GET /imports/{id}\` shows. Each row goes through the resource\u2019s own write rules. ${INPUT} 400 for a mapping that is not an object, 422 for one that cannot be applied (at \`mapping[column]\`).`,
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
