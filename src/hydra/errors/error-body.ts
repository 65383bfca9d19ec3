import type { Violation } from '../../common/errors/api-errors';

export const ERROR_TITLE = 'An error occurred';

/** hydra:Error or ConstraintViolationList (JSON-LD) for an error. */
export function jsonLdError(
  status: number,
  description: string,
  violations?: Violation[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  if (violations) {
    return {
      '@context': '/contexts/ConstraintViolationList',
      '@type': 'ConstraintViolationList',
      'hydra:title': ERROR_TITLE,
      'hydra:description': description,
      violations: violations.map(normalizeViolation),
      ...extra,
    };
  }
  return {
    '@context': '/contexts/Error',
    '@type': 'hydra:Error',
    'hydra:title': ERROR_TITLE,
    'hydra:description': description,
    ...extra,
  };
}

/** RFC 7807 problem details for JSON clients. */
export function problemError(
  status: number,
  description: string,
  violations?: Violation[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: violations
      ? 'https://symfony.com/errors/validation'
      : 'https://tools.ietf.org/html/rfc2616#section-10',
    title: ERROR_TITLE,
    detail: description,
    status,
  };
  if (violations) body.violations = violations.map(normalizeViolation);
  return { ...body, ...extra };
}

function normalizeViolation(v: Violation): Violation {
  return { propertyPath: v.propertyPath, message: v.message, code: v.code ?? null };
}
