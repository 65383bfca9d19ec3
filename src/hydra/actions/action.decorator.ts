import {
  Delete,
  Get,
  HttpCode,
  Patch,
  Post,
  Put,
  Res,
  SetMetadata,
  applyDecorators,
  createParamDecorator,
  type ExecutionContext,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtension,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { delegatedByDefault } from '../../access/access-level';
import { ACCESS, type AccessDeclaration } from '../../access/access.decorator';
import type { TargetLocator } from '../../access/access-target';
import { ACTION, type ActionContextBase, type ActionDeclaration } from './action-declaration';
import type { ActionResult } from './action-result';
import { actionRequestOf } from './action-request';
import { getResourceOptions } from '../metadata/decorators';
import { FORM_BODY_EXTENSION } from '../core/form';
import { bodySchema, outputSchema, queryParameters } from './action-schemas';
import { declareAction } from './action-registry';

const ROUTE = { GET: Get, POST: Post, PUT: Put, PATCH: Patch, DELETE: Delete } as const;

/** The validated input of the action (set by the HydraInterceptor). */
const ActionInputParam = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => actionRequestOf(ctx).input,
);
const ActionPrincipalParam = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => actionRequestOf(ctx).principal,
);
const ActionContextParam = createParamDecorator(
  (_: unknown, ctx: ExecutionContext) => actionRequestOf(ctx).context,
);

/**
 * Declares an operation that is not CRUD: its route, input DTO, output, success status and
 * the access it needs. The handler is `(input, principal, context) => value`; it never sees
 * the request or the response: the HydraInterceptor negotiates the format, reads and
 * validates the input, checks the declared access, and writes what the handler returns.
 *
 * ```ts
 * @Action({ method: 'POST', path: '/shipments/lookup', summary: 'Finds shipments ...',
 *   input: LookupInput, output: { collection: Shipment }, access: 'workspace:read',
 *   workspace: fromInput(Workspace, 'workspaceId', 'workspace') })
 * lookup(input: LookupInput, principal: Principal) { return this.lookups.shipments(...); }
 * ```
 */
const JSON_BODIES = ['application/ld+json', 'application/json'];
const FORM_BODY = 'application/x-www-form-urlencoded';

/** The success answer from the output, and the other answers the declaration documents. */
function responses(declaration: ActionDeclaration, status: number): MethodDecorator[] {
  const extra = declaration.responses ?? {};
  const success = outputSchema(declaration);
  return [
    ApiResponse({ status, ...success, ...extra[status] }),
    ...Object.entries(extra)
      .filter(([code]) => Number(code) !== status)
      .map(([code, doc]) => ApiResponse({ status: Number(code), ...doc })),
  ];
}

/** The context a handler of this declaration gets: the ids its locators find, named. */
type ContextOf<D extends ActionDeclaration> = ActionContextBase &
  (D extends { workspace: TargetLocator } ? { readonly workspaceId: string } : unknown) &
  (D extends { team: TargetLocator } ? { readonly teamId: string } : unknown);

/**
 * A handler `@Action(declaration)` accepts: it returns the declared output (ActionResult), and
 * reads in its context only the ids the declaration locates.
 */
export type ActionHandler<D extends ActionDeclaration> = (
  input: any,
  principal: any,
  context: ContextOf<D>,
  ...rest: any[]
) => ActionResult<D['output']>;

export function Action<const D extends ActionDeclaration>(
  declaration: D,
): <H extends ActionHandler<D>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<H>,
) => void {
  const status = declaration.status ?? (declaration.output === 'none' ? 204 : 200);
  const access: AccessDeclaration = {
    level: declaration.access,
    delegated: declaration.delegated ?? delegatedByDefault(declaration.access),
    workspace: declaration.workspace,
    team: declaration.team,
  };
  const decorators: MethodDecorator[] = [
    ROUTE[declaration.method](declaration.path),
    HttpCode(status),
    SetMetadata(ACTION, declaration),
    SetMetadata(ACCESS, access),
    ApiExtension('x-access', declaration.access),
    ApiExtension('x-delegated', access.delegated),
    ApiOperation({
      summary: declaration.summary,
      description: declaration.description ?? declaration.summary,
      ...(declaration.operationId ? { operationId: declaration.operationId } : {}),
    }),
    ...responses(declaration, status),
  ];
  // A workspace or team named in the input that the caller cannot see: 404, as a foreign id.
  if ((declaration.workspace || declaration.team) && !declaration.responses?.[404])
    decorators.push(
      ApiResponse({ status: 404, description: 'No such record, or one of another tenant.' }),
    );
  if (declaration.tags) decorators.push(ApiTags(...declaration.tags));
  if (declaration.access !== 'public') decorators.push(ApiSecurity('bearer'));
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(declaration.method);
  if (hasBody && declaration.form) decorators.push(ApiConsumes(...JSON_BODIES, FORM_BODY));
  // Files come as parts of a multipart form, beside the attributes (`file`: format binary).
  else if (hasBody && declaration.uploads)
    decorators.push(ApiConsumes(...JSON_BODIES, 'multipart/form-data'));
  if (hasBody && declaration.input) {
    decorators.push(
      ApiBody({ required: true, schema: bodySchema(declaration.input, declaration.method) }),
    );
    const form = declaration.form;
    // A form of its own (strings): the contract puts it under the form media type.
    if (typeof form === 'object' && form.input)
      decorators.push(ApiExtension(FORM_BODY_EXTENSION, bodySchema(form.input)));
  }
  if (hasBody && !declaration.input) {
    const schema = declaration.bodySchema ?? {
      type: 'object',
      properties: {},
      description: 'No attributes are read: send an empty object, or no body.',
    };
    decorators.push(ApiBody({ required: false, schema }));
  }
  if (!hasBody && declaration.input && !getResourceOptions(declaration.input)) {
    for (const parameter of queryParameters(declaration.input))
      decorators.push(ApiQuery(parameter));
  }

  const apply = applyDecorators(...decorators);
  return (target, key, descriptor) => {
    declareAction(target.constructor, key, declaration);
    ActionInputParam()(target, key, 0);
    ActionPrincipalParam()(target, key, 1);
    ActionContextParam()(target, key, 2);
    // The interceptor writes the response (streamed CSV, Hydra envelope), so Nest must not:
    // a response parameter past the handler's own ones tells it so.
    Res()(target, key, 3);
    apply(target, key, descriptor);
  };
}
