import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

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
 */
export function issueCsrfToken(req: Request, res: Response): string {
  const token = currentCookie(req) ?? randomBytes(24).toString('base64url');
  const secure = req.secure ? '; Secure' : '';
  res.append(
    'Set-Cookie',
    `${COOKIE}=${token}; Path=${PATH}; Max-Age=${LIFETIME_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
  );
  return token;
}

export function csrfTokenValid(req: Request, submitted: unknown): boolean {
  const cookie = currentCookie(req);
  if (!cookie || typeof submitted !== 'string') return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

function currentCookie(req: Request): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[\w-]{16,64}$/.test(value) ? value : null;
    }
  }
  return null;
}
