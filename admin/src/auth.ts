import type { AuthProvider } from 'react-admin';
import { readOnlyIn } from './workspace';

/**
 * Sign-in through the service's own OAuth 2 authorization-code flow with PKCE (S256), as the
 * first-party public client the service registers for the console (no secret: a browser
 * cannot keep one). The session is the browser's, shared by its tabs (localStorage): an access
 * token (an hour) and a refresh token (14 days), so a link opened in a new tab is signed in. A
 * token about to expire, or one the API answers 401, is replaced through the refresh token,
 * by one refresh for all the requests waiting, in every tab (a Web Lock): the service rotates
 * refresh tokens and revokes the whole session when a spent one comes back, so two tabs must
 * never both spend one. A refused refresh signs out; one that cannot reach the service keeps
 * the session (SessionUnavailable). The service has no revocation endpoint:
 * signing out forgets the tokens (in every tab). The workspace chosen stays per tab.
 */
export const CLIENT_ID = 'admin-console';

const TOKEN_KEY = 'console.token';
const PENDING_KEY = 'console.pending-sign-in';
/** A request sent now must still carry a live token. */
const EXPIRY_MARGIN_MS = 5000;

export interface SignedIn {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Single-use: replaced by each refresh. Absent in a session stored before there were any. */
  refreshToken?: string;
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

function stored(): SignedIn | null {
  const raw = localStorage.getItem(TOKEN_KEY);
  return raw ? (JSON.parse(raw) as SignedIn) : null;
}

function live(signedIn: SignedIn): boolean {
  return signedIn.expiresAt - EXPIRY_MARGIN_MS >= Date.now();
}

/** Live, and not the token the API has just refused. */
function usable(signedIn: SignedIn, refused?: string): boolean {
  return live(signedIn) && signedIn.accessToken !== refused;
}

/** The session a token answer opens (or continues, when it is a refresh's). */
function signedInFrom(body: Record<string, string | number>): SignedIn {
  return {
    accessToken: String(body.access_token),
    expiresAt: Date.now() + Number(body.expires_in) * 1000,
    refreshToken: body.refresh_token ? String(body.refresh_token) : undefined,
    userId: String(body.user_id),
    email: String(body.user_email),
  };
}

/** The signed-in session (its access token may need a refresh), or null. */
export function session(): SignedIn | null {
  const signedIn = stored();
  if (!signedIn || live(signedIn) || signedIn.refreshToken) return signedIn;
  signOut();
  return null;
}

export function signOut(): void {
  localStorage.removeItem(TOKEN_KEY);
}

/**
 * Runs `work` while no other tab of this browser runs it (a Web Lock); alone where the browser
 * has no Web Locks (an insecure context: signing in needs a secure one anyway).
 */
function inEveryTabAlone<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as { locks?: LockManager }).locks;
  return locks ? (locks.request('console.refresh', work) as Promise<T>) : work();
}

/** The refresh under way in this tab: every request that needs a new token waits for it. */
let refreshing: Promise<SignedIn | null> | null = null;

/**
 * A session with a live access token, or null (signed out). The token is refreshed first when
 * it is about to expire, or when it is `refused` (the token the API just answered 401 to) and
 * no other request or tab has replaced it yet.
 */
export function freshSession(refused?: string): Promise<SignedIn | null> {
  if (refreshing) return refreshing;
  const signedIn = session();
  if (!signedIn) return Promise.resolve(null);
  if (usable(signedIn, refused)) return Promise.resolve(signedIn);
  const stale = refused ?? signedIn.accessToken;
  refreshing = inEveryTabAlone(() => refresh(stale)).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/**
 * The session could not be renewed for now (the service unreachable, busy or failing), which
 * is not a refusal: the session is kept, and the request that needed it fails with this
 * (status 503) rather than signing every tab out.
 */
export class SessionUnavailable extends Error {
  readonly status = 503;

  constructor() {
    super('The service cannot renew your session right now; try again in a moment.');
  }
}

/**
 * Trades the stored refresh token for a new pair, unless another tab did while this one
 * waited for the lock (its tokens serve here too). A refusal signs out; a failure to reach
 * the service throws SessionUnavailable and keeps the session.
 */
async function refresh(stale: string): Promise<SignedIn | null> {
  const from = stored();
  if (!from) return null;
  if (usable(from, stale)) return from;
  let next: SignedIn | null = null;
  if (from.refreshToken) {
    const response = await fetch('/oauth/v2/token', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: from.refreshToken,
        client_id: CLIENT_ID,
      }),
    }).catch(() => null);
    if (!response || response.status === 429 || response.status >= 500)
      throw new SessionUnavailable();
    if (response.ok) next = signedInFrom((await response.json()) as Record<string, string>);
  }
  // Signed out (or in again) meanwhile: that session wins, this answer is dropped.
  if (stored()?.refreshToken !== from.refreshToken) return null;
  if (next) localStorage.setItem(TOKEN_KEY, JSON.stringify(next));
  else signOut();
  return next;
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
  localStorage.setItem(TOKEN_KEY, JSON.stringify(signedInFrom(body)));
  return null;
}

/** Actions that change data: hidden from a read-only member of the chosen workspace. */
const WRITES = new Set(['create', 'edit', 'delete', 'clone']);

export const authProvider: AuthProvider = {
  // The consent page takes over the tab: this promise never settles.
  login: () => startSignIn().then(() => new Promise<void>(() => undefined)),
  // No revocation endpoint to call: the tokens are forgotten (they expire on their own).
  logout: () => {
    signOut();
    return Promise.resolve();
  },
  checkAuth: async () => {
    // Unable to renew for now: still signed in, the page's requests say what failed.
    const signedIn = await freshSession().catch((e: unknown) => {
      if (e instanceof SessionUnavailable) return session();
      throw e;
    });
    if (!signedIn) throw new Error('Not signed in');
  },
  checkError: (error: { status?: number }) => {
    // A 401 that reaches here survived a refresh and a retry (data-provider): sign out.
    if (error?.status === 401) {
      signOut();
      return Promise.reject(new Error('Signed out'));
    }
    // 403, SessionUnavailable and the rest: stay signed in, the page shows the error.
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
