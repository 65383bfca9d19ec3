import { CredentialsCipher } from '../../credentials/credentials-cipher';
import { rotateCredentialsKey } from '../../credentials/credentials-key-rotation';
import { CliCommand, CliUsageError, parseOptions } from '../cli-command';

export const rotateCredentialsKeyCommand: CliCommand = {
  name: 'rotate-credentials-key',
  description:
    'Re-seal every stored credential secret and queued mail with CREDENTIALS_ENCRYPTION_KEY (old keys in CREDENTIALS_ENCRYPTION_KEY_PREVIOUS)',
  usage: '[--dry-run] [--batch N]',
  async run(args, context) {
    const values = parseOptions(args, {
      'dry-run': { type: 'boolean' },
      batch: { type: 'string' },
    });
    const batch = values.batch === undefined ? 500 : Number(values.batch);
    if (!Number.isInteger(batch) || batch < 1 || batch > 10000) {
      throw new CliUsageError('--batch must be an integer from 1 to 10000.');
    }
    const cipher = new CredentialsCipher(context.config);
    const report = await rotateCredentialsKey(await context.dataSource(), cipher, {
      batch,
      dryRun: values['dry-run'],
      onProgress: (r) =>
        process.stderr.write(`rotate: ${r.examined} examined, ${r.resealed} re-sealed\n`),
    });
    context.print(JSON.stringify({ ...report, dryRun: !!values['dry-run'] }));
    if (report.unreadable.length > 0) {
      process.stderr.write(
        `rotate: ${report.unreadable.length} credentials open with no configured key ` +
          '(add the key that sealed them to CREDENTIALS_ENCRYPTION_KEY_PREVIOUS)\n',
      );
      return 1;
    }
    return 0;
  },
};
