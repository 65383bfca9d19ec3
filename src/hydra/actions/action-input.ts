import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError as ClassValidationError } from 'class-validator';
import type { Request } from 'express';
import { ApiError, ValidationError, type Violation } from '../../common/errors/api-errors';
import { getResourceOptions } from '../metadata/decorators';
import { typeError } from '../write/denormalizer';
import {
  TYPE_CONSTRAINT,
  declaredInputType,
  hasInputType,
  type InputType,
} from '../validation/input-types';
import { isAcceptedBodyType } from '../serialization/negotiation';
import { emptyArraysAsObjects } from '../validation/empty-map';
import { isFormBody } from '../core/form';
import type { ActionDeclaration } from './action-declaration';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The input of an action: its DTO built from the body (POST/PUT/PATCH) or the query string,
 * then validated. Unsupported body media types are 415, a body that is not an object 400,
 * an attribute of the wrong JSON type 400 (API Platform's message), other violations 422.
 * Attributes the DTO does not declare are dropped, as API Platform ignores them.
 */
export async function readActionInput(
  declaration: ActionDeclaration,
  req: Request,
  coerceForm: (resource: Function, body: Record<string, unknown>) => Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const raw = BODY_METHODS.has(declaration.method)
    ? readBody(req, declaration.bodyTypes, declaration.lenientBody)
    : { ...(req.query as Record<string, unknown>) };
  const dto = inputOf(declaration, req);
  if (!dto) return raw;
  if (getResourceOptions(dto)) {
    // A resource's own body: its write pipeline (denormalizer, constraints) reads it.
    return isFormBody(req.headers['content-type']) ? coerceForm(dto, raw) : raw;
  }
  const instance = plainToInstance(dto, raw, {
    exposeDefaultValues: true,
  }) as Record<string, unknown>;
  emptyArraysAsObjects(instance);
  const errors = await validate(instance, {
    whitelist: true,
    forbidUnknownValues: false,
    validationError: { target: false, value: true },
  });
  if (errors.length) throw inputError(errors);
  return instance;
}

/** Whether the request's body is a form (`application/x-www-form-urlencoded`): a browser's. */
export function isFormPost(req: Request): boolean {
  return /^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '');
}

/** The DTO of this request's input: the form's own for a form post, else the declared one. */
function inputOf(declaration: ActionDeclaration, req: Request): Type<object> | undefined {
  const form = declaration.form;
  return (
    (typeof form === 'object' && form.input && isFormPost(req) && form.input) || declaration.input
  );
}

/**
 * The request body of a write; 415 for media types we do not read, 400 for a body that is not
 * an object (`lenient`: both read as an empty body).
 */
export function readBody(
  req: Request,
  extraTypes: readonly string[] = [],
  lenient = false,
): Record<string, unknown> {
  const type = req.headers['content-type'];
  const base = type?.split(';')[0].trim().toLowerCase();
  if (!isAcceptedBodyType(type) && !(base && extraTypes.includes(base))) {
    if (lenient) return {};
    throw new ApiError(
      415,
      `The content-type "${type ?? ''}" is not supported. Supported MIME types are "application/ld+json", "application/json", "application/x-www-form-urlencoded", "multipart/form-data".`,
    );
  }
  const body = req.body as unknown;
  if (body === undefined || (base && extraTypes.includes(base))) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    if (lenient) return {};
    throw new ApiError(400, 'The input data must be an object.');
  }
  return body as Record<string, unknown>;
}

/** A type error first (400), else every violation (422), with paths like `items[2].qty`. */
function inputError(errors: ClassValidationError[]): ApiError {
  const violations: Violation[] = [];
  let wrongType: ApiError | undefined;
  const walk = (list: ClassValidationError[], prefix: string) => {
    for (const error of list) {
      const path = prefix
        ? /^\d+$/.test(error.property)
          ? `${prefix}[${error.property}]`
          : `${prefix}.${error.property}`
        : error.property;
      const constraints = error.constraints ?? {};
      if (TYPE_CONSTRAINT in constraints) {
        wrongType ??= typeMismatch(path, error);
        continue;
      }
      for (const [name, message] of Object.entries(constraints)) {
        const code = (error.contexts?.[name] as { code?: string } | undefined)?.code ?? null;
        violations.push({ propertyPath: path, message, code });
      }
      if (error.children?.length) walk(error.children, path);
    }
  };
  walk(errors, '');
  return wrongType ?? new ValidationError(violations);
}

/** API Platform words types as PHP does. */
const PHP_TYPE_WORDS: Record<InputType, string> = {
  string: 'string',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'array',
  object: 'array',
};

function typeMismatch(path: string, error: ClassValidationError): ApiError {
  const value = (error as unknown as { value: unknown }).value;
  const { type, each } = declaredInputType(error.constraints?.[TYPE_CONSTRAINT] ?? 'string');
  const word = PHP_TYPE_WORDS[type];
  if (!each) return typeError(path, word, value);
  if (!Array.isArray(value)) return typeError(path, 'array', value);
  const index = value.findIndex((v) => !hasInputType(type, v));
  return typeError(`${path}[${index}]`, word, value[index]);
}
