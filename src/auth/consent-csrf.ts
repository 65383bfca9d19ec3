import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The consent form's anti-forgery token: a hidden field that must equal this cookie. */
export const CSRF_FIELD = 'csrf_token';
const COOKIE = 'oauth_consent_csrf';
const PATH = '/oauth/v2/auth';
const LIFETIME_SECONDS = 3600;

/**
 * Double-submit token of the consent page: the GET sets a random value in a SameSite=Strict,
 * HttpOnly cookie scoped to the authorization endpoint and puts the same value in the form; the
 * POST must carry both, equal. Another site can neither read the value nor make the browser
 * send the cookie with a cross-site POST, so no page elsewhere can sign a user in or consent
 * (or deny) on their behalf. Stateless: nothing is stored server-side, any node checks it.
 * Answers the token and the `Set-Cookie` value (`secure`: the request came over HTTPS).
 */
export function issueCsrfToken(
  cookieHeader: string | undefined,
  secure: boolean,
): { token: string; setCookie: string } {
  const token = currentCookie(cookieHeader) ?? randomBytes(24).toString('base64url');
  return {
    token,
    setCookie: `${COOKIE}=${token}; Path=${PATH}; Max-Age=${LIFETIME_SECONDS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`,
  };
}

/** Whether the form's token equals the cookie the request carries (`Cookie` header). */
export function csrfTokenValid(cookieHeader: string | undefined, submitted: unknown): boolean {
  const cookie = currentCookie(cookieHeader);
  if (!cookie || typeof submitted !== 'string') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

function currentCookie(cookieHeader: string | undefined): string | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[\w-]{16,64}$/.test(value) ? value : null;
    }
  }
  return null;
}
