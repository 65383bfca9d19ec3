import { saveFailureMessage } from './save-failure';

describe('the notice of a failed save', () => {
  it('sends a 422 back to the form, whose fields show the violations', () => {
    expect(saveFailureMessage({ status: 422, message: 'email: This value is not valid.' })).toBe(
      'ra.message.invalid_form',
    );
  });

  it("says what the service said otherwise, or react-admin's generic text", () => {
    expect(saveFailureMessage({ status: 403, message: 'Access Denied.' })).toBe('Access Denied.');
    expect(saveFailureMessage({ status: 500, message: '' })).toBe('ra.notification.http_error');
    expect(saveFailureMessage(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(saveFailureMessage('Refused.')).toBe('Refused.');
    expect(saveFailureMessage(undefined)).toBe('ra.notification.http_error');
  });
});
