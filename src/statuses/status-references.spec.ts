import { ApiError, ValidationError } from '../common/errors/api-errors';
import { assertStatusOf, statusCodeInput } from './status-references';

function violationOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError)
      return `${error.violations[0].propertyPath}: ${error.violations[0].message}`;
    if (error instanceof ApiError) return String(error.status);
    throw error;
  }
  return 'none';
}

describe('statusCodeInput', () => {
  it('trims the code and the title; a blank title is none, a long one is cut', () => {
    expect(statusCodeInput({ code: ' packed ', title: ' Packed ' }, 'x')).toEqual({
      code: 'packed',
      title: 'Packed',
    });
    expect(statusCodeInput({ code: 'packed', title: ' ' }, 'x')).toEqual({
      code: 'packed',
      title: null,
    });
    expect(statusCodeInput({ code: 'a', title: 't'.repeat(300) }, 'x').title).toHaveLength(255);
  });

  it('refuses a blank, long or non-string code and a non-string title, under the path', () => {
    expect(violationOf(() => statusCodeInput({}, 'orderStatus'))).toBe(
      'orderStatus.code: This value should not be blank.',
    );
    expect(violationOf(() => statusCodeInput({ code: ' ' }, 'orderStatus'))).toMatch(
      /^orderStatus\.code: /,
    );
    expect(violationOf(() => statusCodeInput({ code: 'é'.repeat(256) }, 's'))).toMatch(/too long/);
    expect(statusCodeInput({ code: 'é'.repeat(255) }, 's').code).toHaveLength(255);
    expect(violationOf(() => statusCodeInput({ code: 3 }, 's'))).toBe(
      's.code: This value should be of type string.',
    );
    expect(violationOf(() => statusCodeInput({ code: 'a', title: 3 }, 's'))).toBe(
      's.title: This value should be of type string.',
    );
  });
});

describe('assertStatusOf', () => {
  const status = { id: 's', workspaceId: 'w1', entity: 'orders' as const };
  it('accepts a status of the workspace and entity only', () => {
    expect(violationOf(() => assertStatusOf(status, 'w1', 'orders', 'orderStatus'))).toBe('none');
    for (const [s, w, e] of [
      [null, 'w1', 'orders'],
      [status, 'w2', 'orders'],
      [status, 'w1', 'shipments'],
    ] as const)
      expect(violationOf(() => assertStatusOf(s, w, e, 'orderStatus'))).toMatch(/^orderStatus: /);
  });
});
