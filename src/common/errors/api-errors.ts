/**
 * Errors the API answers on purpose. The global filter renders them as
 * hydra:Error / ConstraintViolationList (JSON-LD) or problem+json (JSON).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly description: string,
    readonly headers: Record<string, string> = {},
    /** Extra members merged into the error body (e.g. suggestedCarriers). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(description);
  }
}

export class BadRequestError extends ApiError {
  constructor(description: string, extra: Record<string, unknown> = {}) {
    super(400, description, {}, extra);
  }
}

export class NotFoundError extends ApiError {
  constructor(description = 'Not Found') {
    super(404, description);
  }
}

export class ForbiddenError extends ApiError {
  constructor(description = 'Access Denied.') {
    super(403, description);
  }
}

export class ConflictError extends ApiError {
  constructor(description: string) {
    super(409, description);
  }
}

export interface Violation {
  propertyPath: string;
  message: string;
  code?: string | null;
}

/** 422 with the violations of one request. */
export class ValidationError extends ApiError {
  constructor(
    readonly violations: Violation[],
    extra: Record<string, unknown> = {},
  ) {
    super(
      422,
      violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ` : '') + v.message).join('\n'),
      {},
      extra,
    );
  }

  static of(
    propertyPath: string,
    message: string,
    code?: string,
    extra: Record<string, unknown> = {},
  ): ValidationError {
    return new ValidationError([{ propertyPath, message, code: code ?? null }], extra);
  }
}

/** Symfony's constraint codes, so clients matching on them keep working. */
export const ViolationCodes = {
  notBlank: 'c1051bb4-d103-4f74-8988-acbcafc7fdc3',
  notNull: 'ad32d13f-c3d4-423b-909a-857b961eb720',
  unique: '23bd9dbf-6b9b-41cd-a99e-4844bcf3077f',
  email: 'bd79c0ab-ddba-46cc-a703-a7a4b08de310',
  regex: 'de1e3db3-5ed4-4941-aae4-59f3667cc3a3',
  choice: '8e179f1b-97aa-4560-a02f-2a8b42e49df7',
  tooLong: 'd94b19cc-114f-4f44-9cc4-4138e80a87b9',
  tooShort: '9ff3fdc4-b214-49db-8718-39c315e33d45',
  range: '04b91c99-a946-4221-afc5-e65ebac401eb',
  greaterThanOrEqual: 'ea4e51d1-3342-48bd-87f1-9e672cd90cad',
  lessThanOrEqual: '30fbb013-d015-4232-8b3b-8f3be97a7e14',
  invalid: 'ba785a8c-82cb-4283-967c-3cf342181b40',
} as const;
