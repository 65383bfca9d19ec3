import { normalizeName } from './dns-lookup';

/** Where a tracking page's proof of ownership lives: `_tracking-page.<domain>` TXT. */
export const TXT_PREFIX = '_tracking-page.';

export interface DnsAnswers {
  cname: string[];
  txt: string[];
  addresses: string[];
}

export interface DomainCheck {
  accessible: boolean;
  /** The domain's CNAME points at the service's target (traffic arrives here). */
  cname: boolean;
  verified: boolean;
  method: 'txt' | null;
}

/** The TXT value that proves a tracking page's claim: its own random token. */
export function txtProof(token: string): string {
  return `tracking-page-verification=${token.toLowerCase()}`;
}

/**
 * The verdict on DNS answers, pure: accessible when the domain resolves to an address;
 * verified only by the TXT record at `_tracking-page.<domain>` holding the page's token (as
 * the big hosts do). A CNAME to the service is reported but proves nothing: one left behind
 * by a former tenant would hand the domain to whoever claims it next. Nor does a page id,
 * which is no secret.
 */
export function judgeDomain(
  answers: DnsAnswers,
  token: string,
  cnameTarget: string | undefined,
): DomainCheck {
  const target = cnameTarget ? normalizeName(cnameTarget) : null;
  const cname = target !== null && answers.cname.some((c) => normalizeName(c) === target);
  const proof = txtProof(token);
  const verified = answers.txt.some((t) => t.trim().toLowerCase() === proof);
  return {
    accessible: answers.addresses.length > 0,
    cname,
    verified,
    method: verified ? 'txt' : null,
  };
}
