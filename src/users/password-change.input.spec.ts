import { BadRequestError, ValidationError } from '../common/errors/api-errors';
import { readPasswordChange } from './password-change.input';

describe('readPasswordChange', () => {
  it('reads the current password and whether OAuth clients stay', () => {
    expect(readPasswordChange({ currentPassword: 'old one 1', keepOAuthClients: true })).toEqual({
      currentPassword: 'old one 1',
      keepOAuthClients: true,
    });
    const absent = readPasswordChange({ currentPassword: null, keepOAuthClients: null });
    expect(absent.currentPassword).toBeUndefined();
    expect(absent.keepOAuthClients).toBeUndefined();
  });

  it('answers 400 for wrong types and 422 for a current password too long', () => {
    expect(() => readPasswordChange({ keepOAuthClients: 'yes' })).toThrow(BadRequestError);
    expect(() => readPasswordChange({ keepOAuthClients: 1 })).toThrow(/"keepOAuthClients"/);
    expect(() => readPasswordChange({ currentPassword: 42 })).toThrow(/"currentPassword"/);
    expect(() => readPasswordChange({ currentPassword: 'x'.repeat(5000) })).toThrow(
      ValidationError,
    );
  });
});
