import { isEmail } from 'class-validator';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { ViolationCodes, type Violation } from '../common/errors/api-errors';

export const FIELD_TYPES = [
  'text',
  'date',
  'phone',
  'password',
  'email',
  'number',
  'link',
  'select',
  'array',
  'label',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Entities that carry custom fields (their tables have a `custom_fields` jsonb column). */
export const CUSTOM_FIELD_ENTITIES = ['orders', 'shipments'] as const;

export interface SelectOptions {
  keyField: string | null;
  titleField: string | null;
  options: string[] | null;
  url: string | null;
}

/** What value validation needs of a field definition. */
export interface CustomFieldDefinition {
  code: string;
  fieldType: string;
  readonly?: boolean | null;
  validation?: string | null;
  selectOptions?: SelectOptions | null;
  options?: string[] | null;
  default?: string | null;
}

export type ValidationRule =
  { rule: 'required' | 'email' | 'numeric' | 'url' } | { rule: 'min' | 'max'; limit: number };

/**
 * The `validation` member of a field: rules separated by `|` (`required|email|max:20`), as the
 * reference service writes them. Unknown rules are returned so a definition can be refused.
 */
export function parseValidationRules(validation: string | null | undefined): {
  rules: ValidationRule[];
  unknown: string[];
} {
  const rules: ValidationRule[] = [];
  const unknown: string[] = [];
  for (const raw of (validation ?? '').split('|')) {
    const token = raw.trim();
    if (!token) continue;
    const bounded = /^(min|max):(-?\d+(?:\.\d+)?)$/.exec(token);
    if (bounded) rules.push({ rule: bounded[1] as 'min' | 'max', limit: Number(bounded[2]) });
    else if (['required', 'email', 'numeric', 'url'].includes(token))
      rules.push({ rule: token as 'required' });
    else unknown.push(token);
  }
  return { rules, unknown };
}

const v = (propertyPath: string, message: string, code: string | null): Violation => ({
  propertyPath,
  message,
  code,
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}

/** The values a select field accepts; null when they come from a remote list (`url`). */
export function selectChoices(def: CustomFieldDefinition): string[] | null {
  const fromOptions = def.selectOptions?.options ?? null;
  if (fromOptions && fromOptions.length) return fromOptions.map(String);
  if (def.options && def.options.length) return def.options.map(String);
  return def.selectOptions?.url ? null : [];
}

/** Violations of one value of a custom field (null and undefined mean "no value"). */
export function validateCustomFieldValue(
  def: CustomFieldDefinition,
  value: unknown,
  path: string,
): Violation[] {
  const { rules } = parseValidationRules(def.validation);
  const has = (rule: string) => rules.some((r) => r.rule === rule);
  if (value === null || value === undefined || value === '') {
    return has('required')
      ? [v(path, 'This value should not be blank.', ViolationCodes.notBlank)]
      : [];
  }
  const out: Violation[] = [];
  const type = def.fieldType as FieldType;
  const mustBeString = () => {
    if (typeof value === 'string') return true;
    out.push(v(path, 'This value should be of type string.', ViolationCodes.invalid));
    return false;
  };
  switch (type) {
    case 'label':
      out.push(v(path, 'This field does not take a value.', ViolationCodes.invalid));
      return out;
    case 'text':
    case 'password':
      mustBeString();
      break;
    case 'email':
      if (mustBeString() && !isEmail(value as string))
        out.push(v(path, 'This value is not a valid email address.', ViolationCodes.email));
      break;
    case 'phone':
      if (mustBeString() && !isValidPhoneNumber(value as string))
        out.push(v(path, 'This value is not a valid phone number.', ViolationCodes.invalid));
      break;
    case 'link':
      if (mustBeString() && !isHttpUrl(value as string))
        out.push(v(path, 'This value is not a valid URL.', ViolationCodes.invalid));
      break;
    case 'date':
      if (
        mustBeString() &&
        (!ISO_DATE.test(value as string) || Number.isNaN(Date.parse(value as string)))
      )
        out.push(v(path, 'This value is not a valid date.', ViolationCodes.invalid));
      break;
    case 'number':
      if (
        !(typeof value === 'number' && Number.isFinite(value)) &&
        !(typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
      )
        out.push(v(path, 'This value should be a valid number.', ViolationCodes.invalid));
      break;
    case 'select': {
      const choices = selectChoices(def);
      if (mustBeString() && choices !== null && !choices.includes(value as string))
        out.push(v(path, 'The value you selected is not a valid choice.', ViolationCodes.choice));
      break;
    }
    case 'array':
      if (
        !Array.isArray(value) ||
        value.some((x) => typeof x !== 'string' && typeof x !== 'number')
      )
        out.push(v(path, 'This value should be a list of strings.', ViolationCodes.invalid));
      break;
    default:
      out.push(v(path, 'This field has an unknown type.', ViolationCodes.invalid));
  }
  if (out.length) return out;
  for (const r of rules) {
    if (r.rule === 'email' && !(typeof value === 'string' && isEmail(value)))
      out.push(v(path, 'This value is not a valid email address.', ViolationCodes.email));
    if (r.rule === 'url' && !(typeof value === 'string' && isHttpUrl(value)))
      out.push(v(path, 'This value is not a valid URL.', ViolationCodes.invalid));
    if (r.rule === 'numeric' && !/^-?\d+(\.\d+)?$/.test(String(value)))
      out.push(v(path, 'This value should be a valid number.', ViolationCodes.invalid));
    if (r.rule === 'min' || r.rule === 'max') {
      const numeric = type === 'number';
      const size = numeric
        ? Number(value)
        : Array.isArray(value)
          ? value.length
          : [...String(value)].length;
      if (r.rule === 'min' && size < r.limit)
        out.push(
          numeric
            ? v(
                path,
                `This value should be greater than or equal to ${r.limit}.`,
                ViolationCodes.greaterThanOrEqual,
              )
            : v(
                path,
                `This value is too short. It should have ${r.limit} characters or more.`,
                ViolationCodes.tooShort,
              ),
        );
      if (r.rule === 'max' && size > r.limit)
        out.push(
          numeric
            ? v(
                path,
                `This value should be less than or equal to ${r.limit}.`,
                ViolationCodes.lessThanOrEqual,
              )
            : v(
                path,
                `This value is too long. It should have ${r.limit} characters or less.`,
                ViolationCodes.tooLong,
              ),
        );
    }
  }
  return out;
}

export interface CustomFieldValuesInput {
  /** The custom field definitions of the record's workspace and entity. */
  definitions: CustomFieldDefinition[];
  /** The `customFields` object of the request body. */
  values: Record<string, unknown>;
  /** The stored values (PUT), to tell a changed read-only field from an unchanged one. */
  previous?: Record<string, unknown> | null;
  operation: 'post' | 'put';
  path?: string;
}

/**
 * Checks a record's custom field values against the definitions and returns the values to
 * store: only known codes; on POST, fields left out take their default. PUT replaces the whole
 * object, like every PUT. Read-only fields keep what they had (integrations set them).
 */
export function validateCustomFieldValues(input: CustomFieldValuesInput): {
  violations: Violation[];
  value: Record<string, unknown>;
} {
  const path = input.path ?? 'customFields';
  const previous = input.previous ?? {};
  const byCode = new Map(input.definitions.map((d) => [d.code, d]));
  const violations: Violation[] = [];
  const value: Record<string, unknown> = {};
  for (const code of Object.keys(input.values)) {
    if (!byCode.has(code))
      violations.push(v(`${path}.${code}`, 'This field does not exist.', ViolationCodes.invalid));
  }
  for (const def of input.definitions) {
    const at = `${path}.${def.code}`;
    const given = Object.prototype.hasOwnProperty.call(input.values, def.code);
    let current = given ? input.values[def.code] : undefined;
    if (def.readonly) {
      const before = previous[def.code];
      if (given && JSON.stringify(current ?? null) !== JSON.stringify(before ?? null))
        violations.push(v(at, 'This field is read-only.', ViolationCodes.invalid));
      if (before !== undefined) value[def.code] = before;
      continue;
    }
    if (!given && input.operation === 'post' && def.default != null && def.default !== '')
      current = def.default;
    violations.push(...validateCustomFieldValue(def, current, at));
    if (current !== undefined && current !== null && current !== '') value[def.code] = current;
  }
  return { violations, value };
}
