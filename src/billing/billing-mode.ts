import type { AppConfig } from '../config/app-config';

/**
 * Whether this installation bills its teams. Without a billing provider (self-hosting, the
 * default) every team is on the unlimited `self_hosted` plan, whose subscription reads
 * `active`: nothing to buy, no limit to hit. Limits and plans apply only where billing is
 * configured (`BILLING_PROVIDER_URL`).
 *
 * The Team's billing properties are SQL computed on read (team-billing-sql.ts), so the mode
 * reaches them as a session setting of every pooled connection (`-c app.billing=on`); a
 * connection without it (the CLI's) reads as self-hosted.
 */
export const BILLING_MODE_SETTING = 'app.billing';

export function billingConfigured(config: Pick<AppConfig, 'billingProviderUrl'>): boolean {
  return config.billingProviderUrl !== undefined;
}

/** The session setting that tells the database the mode (given to `databaseModule` by the app). */
export function billingSessionSettings(
  config: Pick<AppConfig, 'billingProviderUrl'>,
): Record<string, string> {
  return { [BILLING_MODE_SETTING]: billingConfigured(config) ? 'on' : 'off' };
}

/** SQL true when the session's installation does not bill (see above). */
export const SELF_HOSTED_SQL = `(current_setting('${BILLING_MODE_SETTING}', true) IS DISTINCT FROM 'on')`;

export const SELF_HOSTED_PLAN = { id: 'self_hosted', name: 'Self-hosted', type: 'self_hosted' };
