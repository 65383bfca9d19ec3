import { CliUsageError } from '../cli-command';
import { checkBootstrapInput } from './bootstrap-account';

describe('bootstrap arguments', () => {
  it('accepts an e-mail with optional password, team and workspace', () => {
    expect(() => checkBootstrapInput({ email: 'a@example.com' })).not.toThrow();
    expect(() =>
      checkBootstrapInput({
        email: 'a@example.com',
        password: 'long enough',
        team: 'Acme',
        workspace: 'Store',
      }),
    ).not.toThrow();
  });

  it.each([
    [{ email: 'nope' }, /--email/],
    [{ email: 'a@example.com', password: 'short' }, /--password/],
    [{ email: 'a@example.com', team: '  ' }, /--team/],
    [{ email: 'a@example.com', workspace: 'x'.repeat(256) }, /--workspace/],
  ])('refuses %j', (input, message) => {
    expect(() => checkBootstrapInput(input)).toThrow(CliUsageError);
    expect(() => checkBootstrapInput(input)).toThrow(message);
  });
});
