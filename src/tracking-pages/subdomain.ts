/** Tracking page subdomains: lower-case letters, digits and inner hyphens, 3 to 63 characters. */
export const SUBDOMAIN_PATTERN = /^[a-z\d][a-z\d-]+[a-z\d]$/;
export const SUBDOMAIN_MAX_LENGTH = 63;

/**
 * Names that would shadow the service's own hosts. Not in the spec: a demanding user would not
 * want a customer to take `www` or `api`.
 */
export const RESERVED_SUBDOMAINS = new Set([
  'www',
  'api',
  'app',
  'admin',
  'mail',
  'smtp',
  'static',
  'cdn',
  'docs',
  'status',
  'track',
  'tracking',
]);

/** Why a subdomain cannot be used as such, or null when its form is valid. */
export function subdomainFormProblem(value: string): string | null {
  if (value.length > SUBDOMAIN_MAX_LENGTH)
    return `This value is too long. It should have ${SUBDOMAIN_MAX_LENGTH} characters or less.`;
  if (!SUBDOMAIN_PATTERN.test(value)) return 'This value is not valid.';
  return null;
}

/** Host names (custom domains): labels of letters, digits and hyphens, with a dot. */
const HOSTNAME =
  /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;

export function isHostname(value: string): boolean {
  return HOSTNAME.test(value);
}

/**
 * Whether a page's custom domain changes (case aside): a page is then no longer verified for
 * it until POST /domain/verify finds its TXT proof again.
 */
export function domainChanged(before: string | null, after: string | null): boolean {
  return (before?.toLowerCase() ?? null) !== (after?.toLowerCase() ?? null);
}
