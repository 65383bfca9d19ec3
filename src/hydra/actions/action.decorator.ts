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
  ApiExtension,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ACCESS, type AccessDeclaration } from '../../access/access.decorator';
import { AcceptsUploads } from '../serialization/multipart.middleware';
import { ACTION, type ActionDeclaration } from './action-declaration';
import { actionRequestOf } from './action-request';
import { bodySchema, outputSchema } from './action-schemas';
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
export function Action(declaration: ActionDeclaration): MethodDecorator {
  const status = declaration.status ?? (declaration.output === 'none' ? 204 : 200);
  const access: AccessDeclaration = {
    level: declaration.access,
    workspace: declaration.workspace,
    team: declaration.team,
  };
  const decorators: MethodDecorator[] = [
    ROUTE[declaration.method](declaration.path),
    HttpCode(status),
    SetMetadata(ACTION, declaration),
    SetMetadata(ACCESS, access),
    ApiExtension('x-access', declaration.access),
    ApiOperation({
      summary: declaration.summary,
      description: declaration.description ?? declaration.summary,
    }),
    ApiResponse({ status, ...outputSchema(declaration) }),
  ];
  if (declaration.tags) decorators.push(ApiTags(...declaration.tags));
  if (declaration.uploads)
    decorators.push(AcceptsUploads(declaration.uploads === true ? {} : declaration.uploads));
  if (declaration.access !== 'public') decorators.push(ApiSecurity('bearer'));
  if (declaration.input && ['POST', 'PUT', 'PATCH'].includes(declaration.method)) {
    decorators.push(ApiBody({ required: true, schema: bodySchema(declaration.input) }));
  }
  if (!declaration.input && ['POST', 'PUT', 'PATCH'].includes(declaration.method)) {
    const schema = declaration.bodySchema ?? {
      type: 'object',
      properties: {},
      description: 'No attributes are read: send an empty object, or no body.',
    };
    decorators.push(ApiBody({ required: false, schema }));
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
