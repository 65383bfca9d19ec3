import {
  CustomFieldDefinition,
  parseValidationRules,
  selectChoices,
  validateCustomFieldValue,
  validateCustomFieldValues,
} from './custom-field-values';

const def = (fieldType: string, extra: Partial<CustomFieldDefinition> = {}) => ({
  code: 'f',
  fieldType,
  ...extra,
});
const messages = (d: CustomFieldDefinition, value: unknown) =>
  validateCustomFieldValue(d, value, 'customFields.f').map((x) => x.message);

describe('parseValidationRules', () => {
  it('reads rules separated by | and reports unknown ones', () => {
    expect(parseValidationRules('required| email |max:20|min:2.5|frobnicate')).toEqual({
      rules: [
        { rule: 'required' },
        { rule: 'email' },
        { rule: 'max', limit: 20 },
        { rule: 'min', limit: 2.5 },
      ],
      unknown: ['frobnicate'],
    });
    expect(parseValidationRules(null)).toEqual({ rules: [], unknown: [] });
  });
});

describe('validateCustomFieldValue', () => {
  it.each([
    ['text', 'hello', []],
    ['text', 5, ['This value should be of type string.']],
    ['password', 's3cret', []],
    ['email', 'a@b.co', []],
    ['email', 'nope', ['This value is not a valid email address.']],
    ['phone', '+14155552671', []],
    ['phone', '12345', ['This value is not a valid phone number.']],
    ['link', 'https://example.com/x', []],
    ['link', 'javascript:alert(1)', ['This value is not a valid URL.']],
    ['date', '2024-02-29', []],
    ['date', '2024-02-29T10:00:00+02:00', []],
    ['date', '2024-13-01', ['This value is not a valid date.']],
    ['date', 'tomorrow', ['This value is not a valid date.']],
    ['number', 12.5, []],
    ['number', '-3', []],
    ['number', 'ten', ['This value should be a valid number.']],
    ['array', ['a', 2], []],
    ['array', 'a', ['This value should be a list of strings.']],
    ['array', [{}], ['This value should be a list of strings.']],
    ['label', 'x', ['This field does not take a value.']],
  ])('%s accepts or refuses %j', (type, value, expected) => {
    expect(messages(def(type), value)).toEqual(expected);
  });

  it('checks select values against the options, and accepts anything from a remote list', () => {
    const select = def('select', { options: ['S', 'M'] });
    expect(messages(select, 'M')).toEqual([]);
    expect(messages(select, 'XL')).toEqual(['The value you selected is not a valid choice.']);
    const fromSelectOptions = def('select', {
      selectOptions: { keyField: null, titleField: null, options: ['a'], url: null },
    });
    expect(selectChoices(fromSelectOptions)).toEqual(['a']);
    const remote = def('select', {
      selectOptions: { keyField: 'id', titleField: 'name', options: null, url: 'https://x.test' },
    });
    expect(messages(remote, 'anything')).toEqual([]);
    expect(messages(def('select'), 'x')).toEqual(['The value you selected is not a valid choice.']);
  });

  it('applies required, min and max', () => {
    expect(messages(def('text', { validation: 'required' }), null)).toEqual([
      'This value should not be blank.',
    ]);
    expect(messages(def('text'), null)).toEqual([]);
    expect(messages(def('text', { validation: 'min:3|max:4' }), 'ab')).toEqual([
      'This value is too short. It should have 3 characters or more.',
    ]);
    expect(messages(def('number', { validation: 'max:10' }), 11)).toEqual([
      'This value should be less than or equal to 10.',
    ]);
    expect(messages(def('text', { validation: 'email' }), 'x')).toEqual([
      'This value is not a valid email address.',
    ]);
  });
});

describe('validateCustomFieldValues', () => {
  const defs: CustomFieldDefinition[] = [
    { code: 'size', fieldType: 'select', options: ['S', 'M'], default: 'S' },
    { code: 'gift_note', fieldType: 'text' },
    { code: 'erp_id', fieldType: 'text', readonly: true },
  ];

  it('keeps known codes, applies defaults on POST and reports unknown codes', () => {
    const result = validateCustomFieldValues({
      definitions: defs,
      values: { gift_note: 'Happy birthday', nope: 1 },
      operation: 'post',
    });
    expect(result.value).toEqual({ size: 'S', gift_note: 'Happy birthday' });
    expect(result.violations).toEqual([
      {
        propertyPath: 'customFields.nope',
        message: 'This field does not exist.',
        code: expect.any(String),
      },
    ]);
  });

  it('replaces on PUT (no defaults) and protects read-only fields', () => {
    const previous = { size: 'M', erp_id: 'E-1' };
    const ok = validateCustomFieldValues({
      definitions: defs,
      values: { erp_id: 'E-1' },
      previous,
      operation: 'put',
    });
    expect(ok).toEqual({ violations: [], value: { erp_id: 'E-1' } });
    const changed = validateCustomFieldValues({
      definitions: defs,
      values: { erp_id: 'E-2', size: 'XL' },
      previous,
      operation: 'put',
    });
    expect(changed.violations.map((x) => [x.propertyPath, x.message])).toEqual([
      ['customFields.size', 'The value you selected is not a valid choice.'],
      ['customFields.erp_id', 'This field is read-only.'],
    ]);
  });
});
