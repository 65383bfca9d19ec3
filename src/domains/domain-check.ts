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
  verified: boolean;
  method: 'cname' | 'txt' | null;
}

/**
 * The verdict on DNS answers, pure: accessible when the domain resolves to an address;
 * verified by a CNAME to the service's target, or a TXT record at `_tracking-page.<domain>`
 * holding the page id (bare or as `tracking-page=<id>`).
 */
export function judgeDomain(
  answers: DnsAnswers,
  pageId: string,
  cnameTarget: string | undefined,
): DomainCheck {
  const target = cnameTarget ? normalizeName(cnameTarget) : null;
  const byCname = target !== null && answers.cname.some((c) => normalizeName(c) === target);
  const id = pageId.toLowerCase();
  const byTxt = answers.txt.some((t) => {
    const value = t.trim().toLowerCase();
    return value === id || value === `tracking-page=${id}`;
  });
  return {
    accessible: answers.addresses.length > 0,
    verified: byCname || byTxt,
    method: byCname ? 'cname' : byTxt ? 'txt' : null,
  };
}
