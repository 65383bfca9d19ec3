import { adapterFor } from './adapters';
import { PROVIDER_TYPES } from './provider-adapter';
import { remoteTrackingState } from './remote-tracking-state';
import { remoteTrackingStops } from './remote-tracking-stops';
import { retiredTrackingCredentials } from './retired-tracking-credentials';
import { type SqlRunner } from '../../../database/query';

/**
 * The job that applies a change of a team's tracking credentials at once (data: `{teamId}`):
 * sends the stops it queued and moves the team's shipments to their new route
 * (TrackingRerouter). Sent in the transaction of the change.
 */
export const REROUTE_QUEUE = 'tracking.reroute';

/** Credentials as stored: type, parameters and (opened) secrets. */
export interface CredentialsSettings {
  type: string;
  parameters: Record<string, unknown>;
  secrets: Record<string, string>;
}

/** Values that name the account at a provider (the rest, e.g. webhook secrets, do not). */
const ACCOUNT_PARAMETERS = ['baseUrl', 'clientId', 'merchantId'];
const ACCOUNT_SECRETS = ['apiKey'];

export function isTrackingType(type: string | null | undefined): boolean {
  return (
    type !== null && type !== undefined && (PROVIDER_TYPES as readonly string[]).includes(type)
  );
}

/**
 * Whether a write of tracking credentials points them at another provider or account: another
 * type, server (`baseUrl`), API key or client/merchant id. Numbers registered before are then
 * registered with an account these credentials no longer reach, so they are stopped there. A key
 * rotated within one account counts as a change too (we cannot tell the two apart): its numbers
 * are stopped under the old key, then registered again under the new one.
 */
export function trackingAccountChanged(
  before: CredentialsSettings,
  after: CredentialsSettings,
): boolean {
  if (!isTrackingType(before.type)) return false;
  if (before.type !== after.type) return true;
  const same = (a: unknown, b: unknown) => (a ?? '') === (b ?? '');
  return (
    ACCOUNT_PARAMETERS.some((k) => !same(before.parameters[k], after.parameters[k])) ||
    ACCOUNT_SECRETS.some((k) => !same(before.secrets[k], after.secrets[k]))
  );
}

/**
 * Credentials leave the account their numbers are registered with (deleted, or written to
 * point elsewhere): in the caller's transaction, a copy of them as they were (sealed secrets
 * included) is kept under a new key, the numbers still registered there are queued for
 * stopping under that key (with the stops already queued), and the shipments' registrations
 * end (they register again wherever they are routed next). The copy is kept rather than
 * stopping before the write because stops talk to the provider, which must never happen
 * inside the request (slow, throttled, down); the copy goes once its stops ended
 * (retiredTrackingCredentials.sweep). Nothing is kept when nothing is left to stop.
 */
export async function retireTrackingAccount(
  runner: SqlRunner,
  old: CredentialsSettings & { id: string; teamId: string; secretsCiphertext: string | null },
): Promise<void> {
  // Providers that cannot stop (EasyPost, carrier APIs) need nothing kept.
  if (!adapterFor(old.type)?.stop) return;
  const stops = await remoteTrackingState.detach(runner, old.id);
  if (stops.length === 0 && !(await remoteTrackingStops.anyQueued(runner, old.id))) return;
  const retiredKey = await retiredTrackingCredentials.retire(runner, old);
  await remoteTrackingStops.rekey(runner, old.id, retiredKey);
  await remoteTrackingStops.enqueue(
    runner,
    stops.map((s) => ({ ...s, credentialsKey: retiredKey })),
    null,
  );
}
