import { DataSource } from 'typeorm';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { closeTestApp, createTestApp } from './support/app';
import { api } from './support/http';
import { createTenant, Tenant } from './factories/tenant.factory';
import {
  ClientCredentials,
  createClient,
  hiddenFields,
  pkcePair,
  setPassword,
  travel,
  userTokenAnswer,
} from './factories/identity.factory';

const REDIRECT = 'https://app.example.test/oauth/callback';
const PASSWORD = 'user password 123';

describe('OAuth2 authorization-code flow over HTTP', () => {
  let app: NestExpressApplication;
  let owner: Tenant;
  let user: Tenant;
  let client: ClientCredentials;

  beforeAll(async () => {
    app = await createTestApp();
    // The client belongs to one account; the user who signs in is another.
    owner = await createTenant(app);
    user = await createTenant(app);
    await setPassword(app, user.userId, PASSWORD);
    client = await createClient(app, owner, {
      name: 'Partner <App>',
      redirectUris: [REDIRECT, 'https://app.example.test/other'],
    });
  });
  // One account signs in many times: each test starts with fresh sign-in budgets
  // (ACCOUNT_RATE_LIMIT_PER_ACCOUNT, see test/security/account-rate-limits.e2e-spec.ts).
  beforeEach(() => app.get(DataSource).query('DELETE FROM rate_limit_counter'));
  afterAll(async () => {
    await app?.get(DataSource).query('DELETE FROM rate_limit_counter');
    await closeTestApp(app);
  });

  const server = () => request(app.getHttpServer());

  /** Opens the page, then signs in and allows; answers the redirect location. */
  async function authorize(
    query: Record<string, string> = {},
    credentials = { email: user.email, password: PASSWORD },
  ): Promise<URL> {
    const page = await server()
      .get('/oauth/v2/auth')
      .query({
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 'xyz',
        ...query,
      })
      .expect(200);
    const res = await server()
      .post('/oauth/v2/auth')
      .set('Cookie', page.headers['set-cookie'])
      .type('form')
      .send({ ...hiddenFields(page.text), ...credentials, allowed: 'true' })
      .expect(302);
    return new URL(res.headers.location);
  }

  function exchange(body: Record<string, string>) {
    return server()
      .post('/oauth/v2/auth')
      .send({
        grant_type: 'authorization_code',
        redirect_uri: REDIRECT,
        client_id: client.clientId,
        client_secret: client.clientSecret,
        ...body,
      });
  }

  function refresh(refreshToken: string) {
    return server().post('/oauth/v2/token').type('form').send({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
  }

  it('shows a login and consent page naming the client', async () => {
    const page = await server()
      .get('/oauth/v2/auth')
      .query({
        client_id: client.clientId,
        state: 'abc',
        redirect_uri: REDIRECT,
        response_type: 'code',
      })
      .expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('Partner &lt;App&gt;');
    expect(page.text).not.toContain('Partner <App>');
    expect(page.text).toMatch(/<input[^>]+name="password"[^>]+type="password"/);
    expect(hiddenFields(page.text)).toEqual({
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      state: 'abc',
      // The anti-forgery token, equal to the consent cookie (test/security/oauth-authorize).
      csrf_token: expect.stringMatching(/^[\w-]{32}$/),
    });
    expect(page.headers['content-security-policy']).toContain(
      "form-action 'self' https://app.example.test",
    );
  });

  it('redirects to the exact redirect_uri with state and code; the code buys the spec’s token', async () => {
    const location = await authorize();
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();

    const res = await exchange({ code }).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual(userTokenAnswer(user));
    // The token acts as the user who signed in, not as the client's owner.
    const ws = await api(app, { token: res.body.access_token }).get('/workspaces').expect(200);
    expect(ws.body['hydra:member'].map((w: { id: string }) => w.id)).toEqual([user.workspaceId]);
  });

  it('a reused code is refused and revokes everything it issued', async () => {
    const code = (await authorize()).searchParams.get('code')!;
    const first = await exchange({ code }).expect(200);
    const again = await exchange({ code }).expect(400);
    expect(again.body.error).toBe('invalid_grant');
    await api(app, { token: first.body.access_token }).get('/workspaces').expect(401);
    const r = await refresh(first.body.refresh_token).expect(400);
    expect(r.body.error).toBe('invalid_grant');
  });

  it('codes expire after 10 minutes (by the clock)', async () => {
    const code = (await authorize()).searchParams.get('code')!;
    const restore = travel(app, 601);
    try {
      const res = await exchange({ code }).expect(400);
      expect(res.body).toMatchObject({ error: 'invalid_grant' });
      expect(res.body.error_description).toMatch(/expired/);
    } finally {
      restore();
    }
    const fresh = (await authorize()).searchParams.get('code')!;
    const restore2 = travel(app, 599);
    try {
      await exchange({ code: fresh }).expect(200);
    } finally {
      restore2();
    }
  });

  it('the exchange needs the same redirect_uri, the right client and its secret', async () => {
    const code1 = (await authorize()).searchParams.get('code')!;
    const mismatch = await exchange({
      code: code1,
      redirect_uri: 'https://app.example.test/other',
    }).expect(400);
    expect(mismatch.body.error).toBe('invalid_request');

    const code2 = (await authorize()).searchParams.get('code')!;
    const wrongSecret = await exchange({ code: code2, client_secret: 'nope' }).expect(400);
    expect(wrongSecret.body).toEqual({
      error: 'invalid_client',
      error_description: 'The client credentials are invalid',
    });
    const other = await createClient(app, owner, { redirectUris: [REDIRECT] });
    const otherClient = await exchange({
      code: code2,
      client_id: other.clientId,
      client_secret: other.clientSecret,
    }).expect(400);
    expect(otherClient.body.error).toBe('invalid_grant');
  });

  it('wrong credentials re-show the page (401) and never redirect', async () => {
    const page = await server()
      .get('/oauth/v2/auth')
      .query({ client_id: client.clientId, redirect_uri: REDIRECT, response_type: 'code' })
      .expect(200);
    for (const credentials of [
      { email: user.email, password: 'wrong password' },
      { email: 'nobody@example.test', password: PASSWORD },
      { email: user.email, password: '' },
    ]) {
      const res = await server()
        .post('/oauth/v2/auth')
        .set('Cookie', page.headers['set-cookie'])
        .type('form')
        .send({ ...hiddenFields(page.text), ...credentials, allowed: 'true' })
        .expect(401);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Invalid e-mail or password.');
    }
  });

  it('denying access redirects with error=access_denied and the state', async () => {
    const page = await server()
      .get('/oauth/v2/auth')
      .query({
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        state: 's1',
      })
      .expect(200);
    const res = await server()
      .post('/oauth/v2/auth')
      .set('Cookie', page.headers['set-cookie'])
      .type('form')
      .send({ ...hiddenFields(page.text), allowed: 'false' })
      .expect(302);
    const location = new URL(res.headers.location);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('an unknown client or a redirect_uri not registered exactly gets an error page, not a redirect', async () => {
    for (const query of [
      { client_id: 'unknown_x', redirect_uri: REDIRECT },
      { client_id: client.clientId, redirect_uri: `${REDIRECT}/` },
      { client_id: client.clientId, redirect_uri: 'https://evil.example/cb' },
      { client_id: client.clientId, redirect_uri: `${REDIRECT}?x=1` },
      // Two URIs are registered: which one must be said.
      { client_id: client.clientId },
    ]) {
      const res = await server()
        .get('/oauth/v2/auth')
        .query({ response_type: 'code', ...query })
        .expect(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    const posted = await server()
      .post('/oauth/v2/auth')
      .type('form')
      .send({
        client_id: client.clientId,
        redirect_uri: 'https://evil.example/cb',
        response_type: 'code',
        email: user.email,
        password: PASSWORD,
      })
      .expect(400);
    expect(posted.headers.location).toBeUndefined();
  });

  it('an unsupported response_type gets an error page, not a redirect (RFC 9700 4.11.2)', async () => {
    const res = await server()
      .get('/oauth/v2/auth')
      .query({
        client_id: client.clientId,
        redirect_uri: REDIRECT,
        response_type: 'token',
        state: 'st',
      })
      .expect(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  describe('PKCE (S256)', () => {
    it('enforces the verifier when a challenge was sent', async () => {
      const { verifier, challenge } = pkcePair();
      const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
      const missing = (await authorize(pkce)).searchParams.get('code')!;
      const noVerifier = await exchange({ code: missing }).expect(400);
      expect(noVerifier.body.error).toBe('invalid_grant');

      const wrong = (await authorize(pkce)).searchParams.get('code')!;
      const badVerifier = await exchange({ code: wrong, code_verifier: pkcePair().verifier });
      expect(badVerifier.status).toBe(400);
      expect(badVerifier.body.error).toBe('invalid_grant');
      // A failed attempt spends the code.
      await exchange({ code: wrong, code_verifier: verifier }).expect(400);

      const good = (await authorize(pkce)).searchParams.get('code')!;
      const res = await exchange({ code: good, code_verifier: verifier }).expect(200);
      expect(res.body.refresh_token).toEqual(expect.any(String));
    });

    it('lets a public client exchange without its secret, with the verifier', async () => {
      const { verifier, challenge } = pkcePair();
      const code = (
        await authorize({ code_challenge: challenge, code_challenge_method: 'S256' })
      ).searchParams.get('code')!;
      const res = await server()
        .post('/oauth/v2/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          client_id: client.clientId,
          code_verifier: verifier,
        })
        .expect(200);
      expect(res.body.user_id).toBe(user.userId);
    });

    it('a verifier without a challenge, or the plain method, is refused', async () => {
      const code = (await authorize()).searchParams.get('code')!;
      const res = await exchange({ code, code_verifier: pkcePair().verifier }).expect(400);
      expect(res.body.error).toBe('invalid_grant');

      const plain = await authorize({
        code_challenge: pkcePair().verifier,
        code_challenge_method: 'plain',
      });
      expect(plain.searchParams.get('error')).toBe('invalid_request');
      expect(plain.searchParams.get('code')).toBeNull();
    });
  });

  describe('refresh tokens', () => {
    /** The tokens of a fresh sign-in (authorize, then exchange the code). */
    async function signedIn(): Promise<Record<string, string>> {
      const code = (await authorize()).searchParams.get('code')!;
      return (await exchange({ code }).expect(200)).body;
    }

    it('rotate on use; the new pair works', async () => {
      const first = await signedIn();
      const second = (await refresh(first.refresh_token).expect(200)).body;
      expect(second).toMatchObject({
        token_type: 'bearer',
        expires_in: 3600,
        user_id: user.userId,
        user_email: user.email,
        scope: 'user',
      });
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      await api(app, { token: second.access_token }).get('/workspaces').expect(200);
      const third = (await refresh(second.refresh_token).expect(200)).body;
      await api(app, { token: third.access_token }).get('/workspaces').expect(200);
    });

    it('a reused refresh token revokes its whole family', async () => {
      const first = await signedIn();
      const second = (await refresh(first.refresh_token).expect(200)).body;
      const third = (await refresh(second.refresh_token).expect(200)).body;
      // `second` was used: `first` coming back now is a copy, however soon.
      const reuse = await refresh(first.refresh_token).expect(400);
      expect(reuse.body.error).toBe('invalid_grant');
      await api(app, { token: third.access_token }).get('/workspaces').expect(401);
      await api(app, { token: first.access_token }).get('/workspaces').expect(401);
      await refresh(third.refresh_token).expect(400);
    });

    it('a refresh whose answer was lost may be repeated for 30 s, once per answer', async () => {
      const first = await signedIn();
      const lost = (await refresh(first.refresh_token).expect(200)).body;
      const restore = travel(app, 29);
      let retried: Record<string, string>;
      try {
        retried = (await refresh(first.refresh_token).expect(200)).body;
      } finally {
        restore();
      }
      expect(retried.refresh_token).not.toBe(lost.refresh_token);
      await api(app, { token: retried.access_token }).get('/workspaces').expect(200);
      // The lost answer turning up later is the reuse: the family goes.
      const late = await refresh(lost.refresh_token).expect(400);
      expect(late.body.error).toBe('invalid_grant');
      await api(app, { token: retried.access_token }).get('/workspaces').expect(401);
      await refresh(retried.refresh_token).expect(400);
    });

    it('past 30 s, a rotated refresh token coming back revokes its family', async () => {
      const first = await signedIn();
      const second = (await refresh(first.refresh_token).expect(200)).body;
      const restore = travel(app, 31);
      try {
        await refresh(first.refresh_token).expect(400);
        await api(app, { token: second.access_token }).get('/workspaces').expect(401);
        await refresh(second.refresh_token).expect(400);
      } finally {
        restore();
      }
    });

    it('two refreshes racing with one token never leave two live sessions', async () => {
      const first = await signedIn();
      const answers = await Promise.all([
        refresh(first.refresh_token),
        refresh(first.refresh_token),
      ]);
      const granted = answers.filter((r) => r.status === 200).map((r) => r.body);
      // The loser of the race is a reuse (the family revoked, maybe before the winner's answer
      // was stored) or, once the winner's rotation was stored, forgiven (the winner's answer
      // spent): never two lineages.
      const usable: Array<Record<string, string>> = [];
      for (const tokens of granted) {
        const next = await refresh(tokens.refresh_token);
        if (next.status === 200) usable.push(next.body);
      }
      expect(usable.length).toBeLessThanOrEqual(1);
    });

    it('another family is untouched, and refresh works through POST /oauth/v2/auth too', async () => {
      const a = (await exchange({ code: (await authorize()).searchParams.get('code')! })).body;
      const b = (await exchange({ code: (await authorize()).searchParams.get('code')! })).body;
      const a2 = (await refresh(a.refresh_token).expect(200)).body;
      await refresh(a2.refresh_token).expect(200);
      await refresh(a.refresh_token).expect(400);
      await api(app, { token: b.access_token }).get('/workspaces').expect(200);
      const viaAuth = await server()
        .post('/oauth/v2/auth')
        .send({
          grant_type: 'refresh_token',
          refresh_token: b.refresh_token,
          client_id: client.clientId,
          client_secret: client.clientSecret,
        })
        .expect(200);
      expect(viaAuth.body.refresh_token).toEqual(expect.any(String));
    });

    it('expire after 14 days and belong to their client', async () => {
      const code = (await authorize()).searchParams.get('code')!;
      const tokens = (await exchange({ code })).body;
      const other = await createClient(app, owner, { redirectUris: [REDIRECT] });
      const stolen = await server()
        .post('/oauth/v2/token')
        .type('form')
        .send({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: other.clientId,
          client_secret: other.clientSecret,
        })
        .expect(400);
      expect(stolen.body.error).toBe('invalid_grant');
      const restore = travel(app, 14 * 24 * 3600 + 1);
      try {
        const res = await refresh(tokens.refresh_token).expect(400);
        expect(res.body.error_description).toMatch(/expired/);
      } finally {
        restore();
      }
    });
  });
});
