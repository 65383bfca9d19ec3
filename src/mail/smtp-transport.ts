import type SMTPPool from 'nodemailer/lib/smtp-pool';
import { isPrivateAddress } from '../common/outbound/address-policy';
import {
  OutboundLookupError,
  OutboundRefusedError,
  resolveOutboundTarget,
  systemLookup,
  type HostLookup,
} from '../common/outbound/outbound-target';
import type { MailReceipt } from './mailer';

/** Connection attempts, the greeting and idle sockets give up after these. */
export const SMTP_CONNECTION_TIMEOUT_MS = 10_000;
export const SMTP_GREETING_TIMEOUT_MS = 10_000;
export const SMTP_SOCKET_TIMEOUT_MS = 30_000;

/** The plain settings of `smtp` credentials (see CREDENTIAL_TYPES.smtp), checked. */
export interface SmtpSettings {
  host: string;
  port: number;
  /** Implicit TLS (usually port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  username: string | null;
  fromEmail: string;
}

/**
 * The settings `smtp` credentials' parameters describe, or why they cannot carry mail: `host`
 * and `fromEmail` are required, `port` defaults to 465 with `secure` and 587 without, and a
 * `username` needs `secrets.password` (`hasPassword`). Parameters are type-checked on write
 * (credential-types.ts), so only presence and range are left to check.
 */
export function smtpSettings(
  parameters: Record<string, unknown>,
  hasPassword: boolean,
): SmtpSettings | { problem: string } {
  const host = typeof parameters.host === 'string' ? parameters.host.trim() : '';
  const fromEmail = typeof parameters.fromEmail === 'string' ? parameters.fromEmail.trim() : '';
  const missing = [!host && 'parameters.host', !fromEmail && 'parameters.fromEmail'].filter(
    (m): m is string => !!m,
  );
  if (missing.length) return { problem: `the SMTP credentials lack ${missing.join(' and ')}` };
  const secure = parameters.secure === true;
  const port = typeof parameters.port === 'number' ? parameters.port : secure ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { problem: `the SMTP credentials' port ${port} is not a port from 1 to 65535` };
  }
  const username =
    typeof parameters.username === 'string' && parameters.username !== ''
      ? parameters.username
      : null;
  if (username && !hasPassword) {
    return { problem: 'the SMTP credentials have a username but no secrets.password' };
  }
  return { host: host.toLowerCase(), port, secure, username, fromEmail };
}

/**
 * Options of a pooled nodemailer transport for `settings`, connecting to `address` (the
 * host's address, checked against the private ranges beforehand) while TLS still verifies the
 * certificate against the host name. A login to a public address needs TLS: implicit
 * (`secure`) or STARTTLS, which the connection then requires (a server that does not offer it
 * gets no AUTH, the password never crosses the internet in clear). Only a private host the
 * operator allowed (SMTP_ALLOWED_HOSTS: a relay in the deployment's network, tests) may take
 * it in clear. Never logs (the pool would otherwise log the AUTH exchange with `debug`).
 */
export function smtpTransportOptions(
  settings: SmtpSettings,
  password: string | undefined,
  address: string,
): SMTPPool.Options {
  return {
    pool: true,
    maxConnections: 2,
    maxMessages: 100,
    host: address,
    port: settings.port,
    secure: settings.secure,
    ...(settings.username && !settings.secure && !isPrivateAddress(address)
      ? { requireTLS: true }
      : {}),
    tls: { servername: settings.host },
    ...(settings.username ? { auth: { user: settings.username, pass: password ?? '' } } : {}),
    connectionTimeout: SMTP_CONNECTION_TIMEOUT_MS,
    greetingTimeout: SMTP_GREETING_TIMEOUT_MS,
    socketTimeout: SMTP_SOCKET_TIMEOUT_MS,
    logger: false,
    debug: false,
  };
}

/** The SMTP host may not be reached at all (private address): retrying will not help. */
export class SmtpRefusedError extends Error {
  override readonly name = 'SmtpRefusedError';
}

export type { HostLookup };

/**
 * The address to connect to for `host`, by the outbound policy (src/common/outbound): every
 * address it resolves to must be public unless the host or the address is in `allowedHosts`
 * (SMTP_ALLOWED_HOSTS), so a team's credentials cannot reach into the deployment's network.
 * DNS failures are ordinary (retryable) errors; a refusal is an SmtpRefusedError.
 */
export async function smtpAddress(
  host: string,
  allowedHosts: readonly string[],
  lookupHost: HostLookup = systemLookup,
): Promise<string> {
  try {
    return (await resolveOutboundTarget(host, { allowedHosts, lookup: lookupHost })).address;
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw new SmtpRefusedError(error.message);
    if (error instanceof OutboundLookupError) throw new Error(error.message);
    throw error;
  }
}

/** `host:port`, how errors name the server. */
export function smtpServerLabel(settings: Pick<SmtpSettings, 'host' | 'port'>): string {
  return `${settings.host}:${settings.port}`;
}

/**
 * `text` without the secrets: each value as written, base64-encoded (AUTH LOGIN sends the
 * password so), and the AUTH PLAIN token of `username` and the password, so an error that
 * quotes the SMTP exchange never carries them.
 */
export function redactSecrets(
  text: string,
  secrets: Record<string, string>,
  username: string | null = null,
): string {
  const forms = new Set<string>();
  for (const value of Object.values(secrets)) {
    if (!value) continue;
    forms.add(value);
    forms.add(Buffer.from(value, 'utf8').toString('base64'));
    if (username !== null) {
      forms.add(Buffer.from(`\u0000${username}\u0000${value}`, 'utf8').toString('base64'));
    }
  }
  let out = text;
  // Longest first: a value may contain a shorter one.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    out = out.split(form).join('********');
  }
  return out;
}

/** The accepted and rejected recipients nodemailer reports, as plain addresses. */
export function receiptOf(info: { accepted?: unknown; rejected?: unknown }): MailReceipt {
  const addresses = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.map((a) =>
          typeof a === 'string' ? a : String((a as { address?: unknown }).address ?? ''),
        )
      : [];
  return { accepted: addresses(info.accepted), rejected: addresses(info.rejected) };
}
