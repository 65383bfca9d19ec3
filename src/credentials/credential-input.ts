import { type Violation, ViolationCodes } from '../common/errors/api-errors';
import { typeError } from '../hydra/write/denormalizer';
import { type CredentialTypeSpec, parameterProblem } from './credential-types';
import { chosenSecretProblem } from './secret-strength';

export const MAX_SECRET_LENGTH = 4096;

/**
 * The `parameters` a body gives, checked against the type: unknown members and values that do
 * not fit their kind are violations (pushed to `violations`), texts are trimmed, null and ''
 * drop a member. 400 when it is not an object. `refused` adds a check of the caller's (a
 * `baseUrl` that points at a private address).
 */
export function readParameters(
  spec: CredentialTypeSpec,
  raw: unknown,
  violations: Violation[],
  refused: (kind: string, value: unknown) => string | null = () => null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (raw === null) return out;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw typeError('parameters', 'array', raw);
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const kind = (spec.parameters as Record<string, string>)[key];
    if (!kind) {
      violations.push(unexpected(`parameters.${key}`));
      continue;
    }
    const problem = parameterProblem(kind as never, value) ?? refused(kind, value);
    if (problem) violations.push(invalid(`parameters.${key}`, problem));
    else if (value !== null && value !== '')
      out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return out;
}

/**
 * The `secrets` a body gives, merged into `current` (the secrets kept, changed in place):
 * null removes them all, a member null or '' removes one, others replace it once checked (a
 * string of the type's length, random-looking where the user chooses it (`chosenSecrets`);
 * never echoed in a message). 400 when it is not an object.
 */
export function mergeSecrets(
  spec: CredentialTypeSpec,
  current: Record<string, string>,
  raw: unknown,
  violations: Violation[],
): void {
  if (raw === null) {
    for (const key of Object.keys(current)) delete current[key];
    return;
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) throw typeError('secrets', 'array', raw);
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    if (!spec.secrets.includes(key)) {
      violations.push(unexpected(`secrets.${key}`));
    } else if (value === null || value === '') {
      delete current[key];
    } else if (typeof value !== 'string') {
      violations.push(invalid(`secrets.${key}`, 'This value should be of type string.'));
    } else if (value.length < (spec.minSecretLength ?? 1)) {
      violations.push(
        invalid(
          `secrets.${key}`,
          `This value is too short. It should have ${spec.minSecretLength} characters or more.`,
        ),
      );
    } else if (spec.chosenSecrets?.includes(key) && chosenSecretProblem(value)) {
      violations.push(invalid(`secrets.${key}`, chosenSecretProblem(value)!));
    } else if (value.length > MAX_SECRET_LENGTH) {
      violations.push(
        invalid(
          `secrets.${key}`,
          `This value is too long. It should have ${MAX_SECRET_LENGTH} characters or less.`,
        ),
      );
    } else {
      current[key] = value;
    }
  }
}

function unexpected(path: string): Violation {
  return {
    propertyPath: path,
    message: 'This field was not expected.',
    code: ViolationCodes.invalid,
  };
}

function invalid(path: string, message: string): Violation {
  return { propertyPath: path, message, code: ViolationCodes.invalid };
}
