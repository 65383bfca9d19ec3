import { runMigrationsLocked } from '../../database/migration-runner';
import { publicBaseUrl } from '../../config/public-base-url';
import { CliCommand, CliUsageError, parseOptions } from '../cli-command';
import { bootstrapAccount, checkBootstrapInput } from './bootstrap-account';

/**
 * `npm run cli -- bootstrap --email you@example.com`: from an empty database to API
 * credentials in one step (see the README's quick start). Prints one JSON object.
 */
export const bootstrapCommand: CliCommand = {
  name: 'bootstrap',
  description:
    'Create (or reuse) a verified user, a team, a workspace and an OAuth client; print credentials as JSON',
  usage: '--email <address> [--password <password>] [--team <name>] [--workspace <title>]',
  async run(args, context) {
    const values = parseOptions(args, {
      email: { type: 'string' },
      password: { type: 'string' },
      team: { type: 'string' },
      workspace: { type: 'string' },
    });
    if (!values.email) throw new CliUsageError('--email is required.');
    const input = { ...values, email: values.email };
    checkBootstrapInput(input);

    const dataSource = await context.dataSource();
    await runMigrationsLocked(dataSource);
    const result = await dataSource.transaction((em) => bootstrapAccount(em, input));
    const baseUrl = publicBaseUrl(context.config);
    context.print(
      JSON.stringify(
        { base_url: baseUrl, token_url: `${baseUrl}/oauth/v2/token`, ...result },
        null,
        2,
      ),
    );
  },
};
