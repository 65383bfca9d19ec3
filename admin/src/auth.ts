import type { AuthProvider } from 'react-admin';
import { readOnlyIn } from './workspace';

/**
 * Sign-in through the service's own OAuth 2 authorization-code flow with PKCE (S256), as the
 * first-party public client the service registers for the console (no secret: a browser
 * cannot keep one). The token lives in this tab's sessionStorage only; no refresh token is
 * issued to the console, so an expired token means signing in again.
 */
export const CLIENT_ID = 'admin-console';

const TOKEN_KEY = 'console.token';
const PENDING_KEY = 'console.pending-sign-in';

export interface SignedIn {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  userId: string;
  email: string;
}

interface PendingSignIn {
  verifier: string;
  state: string;
  /** The console route to come back to (its hash). */
  returnTo: string;
}

export function redirectUri(): string {
  return `${window.location.origin}/admin/`;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(size: number): string {
  return base64url(crypto.getRandomValues(new Uint8Array(size)));
}

/** The signed-in session, unless there is none or its token has expired. */
export function session(): SignedIn | null {
  const raw = sessionStorage.getItem(TOKEN_KEY);
  if (!raw) return null;
  const stored = JSON.parse(raw) as SignedIn;
  // A few seconds of margin: a request sent now must still carry a live token.
  if (stored.expiresAt - 5000 < Date.now()) {
    sessionStorage.removeItem(TOKEN_KEY);
    return null;
  }
  return stored;
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Sends the browser to the consent page; it comes back to /admin/ with a code. */
export async function startSignIn(): Promise<void> {
  // crypto.subtle exists in secure contexts only: https, or http on localhost/127.0.0.1.
  if (!window.crypto?.subtle)
    throw new Error('Signing in needs https (or http on localhost): PKCE uses Web Crypto.');
  const verifier = randomString(32);
  const state = randomString(16);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  // Back to where the user was, not to the login page itself.
  const hash = window.location.hash;
  const returnTo = hash.startsWith('#/login') ? '#/' : hash;
  const pending: PendingSignIn = { verifier, state, returnTo };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL('/oauth/v2/auth', window.location.origin);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: redirectUri(),
    state,
    code_challenge: base64url(new Uint8Array(digest)),
    code_challenge_method: 'S256',
  }).toString();
  window.location.assign(url.href);
}

/**
 * On the way back from the consent page (`/admin/?code=…&state=…`): exchanges the code for a
 * token. Answers an error message to show, or null (signed in, or nothing to complete).
 */
export async function completeSignIn(): Promise<string | null> {
  const params = new URLSearchParams(window.location.search);
  if (!params.has('code') && !params.has('error')) return null;
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const pending = raw ? (JSON.parse(raw) as PendingSignIn) : null;
  // The code must not stay in the address bar (history, screenshots).
  window.history.replaceState(null, '', `/admin/${pending?.returnTo ?? ''}`);
  if (params.has('error')) return params.get('error_description') ?? params.get('error');
  if (!pending || params.get('state') !== pending.state)
    return 'This sign-in did not start in this tab: sign in again.';
  const response = await fetch('/oauth/v2/token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: params.get('code') ?? '',
      redirect_uri: redirectUri(),
      client_id: CLIENT_ID,
      code_verifier: pending.verifier,
    }),
  });
  const body = (await response.json()) as Record<string, string | number>;
  if (!response.ok) return String(body.error_description ?? body.error ?? 'Sign-in failed.');
  const signedIn: SignedIn = {
    accessToken: String(body.access_token),
    expiresAt: Date.now() + Number(body.expires_in) * 1000,
    userId: String(body.user_id),
    email: String(body.user_email),
  };
  sessionStorage.setItem(TOKEN_KEY, JSON.stringify(signedIn));
  return null;
}

/** Actions that change data: hidden from a read-only member of the chosen workspace. */
const WRITES = new Set(['create', 'edit', 'delete', 'clone']);

export const authProvider: AuthProvider = {
  // The consent page takes over the tab: this promise never settles.
  login: () => startSignIn().then(() => new Promise<void>(() => undefined)),
  logout: () => {
    signOut();
    return Promise.resolve();
  },
  checkAuth: () => (session() ? Promise.resolve() : Promise.reject(new Error('Not signed in'))),
  checkError: (error: { status?: number }) => {
    if (error?.status === 401) {
      signOut();
      return Promise.reject(new Error('Signed out'));
    }
    // 403 and the rest: stay signed in, the page shows the error.
    return Promise.resolve();
  },
  getIdentity: () => {
    const s = session();
    return s
      ? // No fullName: the account button stays an icon named "Profile" (its menu shows the
        // address), as axe-core wants a button's name to contain its visible text.
        Promise.resolve({ id: s.userId })
      : Promise.reject(new Error('Not signed in'));
  },
  getPermissions: () => Promise.resolve(undefined),
  canAccess: async ({ action }) => !WRITES.has(action) || !(await readOnlyIn()),
};
