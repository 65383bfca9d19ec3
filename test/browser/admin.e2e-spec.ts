import type { NestExpressApplication } from '@nestjs/platform-express';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { createShipment, testTrackingNumber } from '../factories/commerce.factory';
import { joinTeam, setPassword, type Member } from '../factories/identity.factory';
import { addWorkspace, createTenant, type Tenant } from '../factories/tenant.factory';
import { ATTENTION_REASONS, basisText, windowText } from '../../admin/src/insights';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import { api } from '../support/http';
import {
  axeViolations,
  launchBrowser,
  requireChromium,
  screenshot,
  type AxeViolation,
  type Browser,
} from './support/browser';

const ROOT = join(__dirname, '..', '..');
// A page loads a 1.4 MB bundle and parses the Hydra documentation: on a loaded 2-core runner
// a step can take longer than Playwright's and jest's defaults.
const STEP_TIMEOUT = 60_000;
jest.setTimeout(180_000);
const PASSWORD = 'console password 123';

/**
 * The merchant console (API Platform Admin, admin/) in a real browser against the real app:
 * sign-in through the OAuth authorization-code flow with PKCE, lists, filters, show, edit and
 * create built from the Hydra documentation, and a read-only member.
 */
describe('the merchant console at /admin in a browser', () => {
  let app: NestExpressApplication;
  let db: DataSource;
  let base: string;
  let browser: Browser;
  let owner: Tenant;
  let reader: Member;
  let delivered: Record<string, any>;
  let inTransit: Record<string, any>;
  /** Script errors, CSP reports and failed requests of every page opened. */
  const pageErrors: string[] = [];
  const serious: AxeViolation[] = [];

  const watch = (page: Page, name: string) => {
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(`${name} at ${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => pageErrors.push(`${name}: ${e.message}`));
    // The console's "Failed to load resource" names no URL: this does.
    page.on('response', (r) => {
      if (r.status() >= 400)
        pageErrors.push(`${name}: ${r.status()} ${r.request().method()} ${r.url()}`);
    });
  };

  /** axe-core on the page as it is: serious and critical findings are kept for the last test. */
  const audit = async (page: Page, name: string) => {
    // Not while a request is in flight: the app bar's spinner is transient.
    await page.locator('[role="progressbar"]').first().waitFor({ state: 'detached' });
    for (const v of await axeViolations(page))
      if (v.impact === 'serious' || v.impact === 'critical')
        serious.push({ ...v, id: `${name}: ${v.id}` });
  };

  /** The console's page of the test running (signIn), for the explanation of a failure. */
  let current: Page | null = null;

  /** A signed-in console in a fresh context (its own storage). */
  async function signIn(email: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.context({
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: 'Europe/Berlin',
    });
    context.setDefaultTimeout(STEP_TIMEOUT);
    const page = await context.newPage();
    current = page;
    watch(page, email);
    await page.goto(`${base}/admin/`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/v2\/auth\?/);
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.getByRole('button', { name: 'Sign in and allow' }).click();
    // Back at /admin/ without the code in the address; the console opens its first list.
    await page.waitForURL(new RegExp(`^${base}/admin/#/`));
    await page.getByRole('menuitem', { name: 'Shipments' }).waitFor();
    return { context, page };
  }

  const consoleToken = (page: Page) =>
    page.evaluate(
      'JSON.parse(localStorage.getItem("console.token") || "null")?.accessToken',
    ) as Promise<string | undefined>;

  beforeAll(async () => {
    requireChromium();
    // The bundle is not committed: build it (a no-op when its inputs did not change). A
    // failure here (no npm registry for the first install) fails the spec with npm's output.
    execFileSync(process.execPath, [join(ROOT, 'admin', 'build.mjs')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    app = await createTestApp({ listen: true });
    db = app.get(DataSource);
    base = testAppUrl(app);
    browser = await launchBrowser(base);
    owner = await createTenant(app, { workspaceTitle: 'Acme Outdoor' });
    await setPassword(app, owner.userId, PASSWORD);
    // The sandbox provider tracks TM200…TM as delivered and TM102…TM as in transit, with
    // checkpoints, when the shipment is created.
    delivered = await createShipment(app, owner, {
      trackingNumber: testTrackingNumber('200'),
      email: 'first@example.test',
    });
    inTransit = await createShipment(app, owner, { trackingNumber: testTrackingNumber('102') });
    reader = await joinTeam(app, owner, 'member', [owner.workspaceId]);
    await db.query(`UPDATE workspace_member SET access_level = 'read' WHERE user_id = $1`, [
      reader.userId,
    ]);
    await setPassword(app, reader.userId, PASSWORD);
  }, 600_000);
  beforeEach(() => db.query('DELETE FROM rate_limit_counter'));
  /**
   * A test that signed in closes its context when it passes: a page still open is a failure's.
   * Playwright's timeout names only the locator it waited for, so the page the console was on
   * (address, visible text, a screenshot in var/artifacts) and what the browser reported are
   * printed beside it.
   */
  afterEach(async () => {
    const page = current;
    current = null;
    if (!page || page.isClosed()) return;
    const test = String(expect.getState().currentTestName);
    const shot = await screenshot(page, `failed-${test.replace(/\W+/g, '-')}`.slice(0, 80)).catch(
      (e: unknown) => `(none: ${String(e)})`,
    );
    const text = await page
      .locator('body')
      .innerText({ timeout: 5_000 })
      .catch((e: unknown) => `(unread: ${String(e)})`);
    console.error(
      `"${test}" failed with the console at ${page.url()} (screenshot: ${shot}). It showed:\n` +
        `${text.slice(0, 2_000)}\nThe browser reported:\n${pageErrors.join('\n') || '(nothing)'}`,
    );
    await page.context().close();
  });
  afterAll(async () => {
    await db?.query('DELETE FROM rate_limit_counter');
    await browser?.close();
    await closeTestApp(app);
  });

  it('serves the page with a strict CSP and the hashed assets for a year', async () => {
    const page = await api(app).get('/admin/').expect(200);
    const csp = String(page.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-|https?:/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain(`content="${nonce}"`);
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(page.text)![1];
    const asset = await api(app).get(script).expect(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    // No web font or CDN in the bundle (react-admin's telemetry ping is in it, switched off by
    // disableTelemetry; the CSP and the foreign-request check below would catch it).
    expect(asset.text).not.toMatch(/fonts\.(googleapis|gstatic)|jsdelivr|unpkg|cdnjs/);
    await api(app).get('/admin').expect(301).expect('Location', '/admin/');
    await api(app).get('/admin/assets/missing.js').expect(404);
    await api(app).get('/admin/assets/..%2F.inputs-hash').expect(404);
  });

  it('signs in through the consent page with PKCE and keeps the code out of the address', async () => {
    const { context, page } = await signIn(owner.email);
    expect(page.url()).not.toMatch(/code=|state=/);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByText(owner.email).waitFor();
    await page.keyboard.press('Escape');
    const token = await consoleToken(page);
    // The token is the console's: an authorization-code token of the first-party client.
    const [row] = await db.query(
      `SELECT c.public_id, c.first_party FROM access_token t JOIN oauth_client c ON c.id = t.client_id
        WHERE t.user_id = $1 ORDER BY t.created_at DESC LIMIT 1`,
      [owner.userId],
    );
    expect(row).toEqual({ public_id: 'admin-console', first_party: true });
    await api(app, { token }).get(`/shipments/${delivered.id}`).expect(200);
    await context.close();
  });

  it('lists shipments filtered by tracking status, then shows one with its checkpoints', async () => {
    const checkpoints = await api(app, { token: owner.token })
      .get(`/shipments/${delivered.id}/checkpoints`)
      .expect(200);
    expect(checkpoints.body['hydra:totalItems']).toBeGreaterThan(0);
    const { context, page } = await signIn(owner.email);
    await page.getByRole('menuitem', { name: 'Shipments' }).click();
    await page.getByText(inTransit.trackingNumber).waitFor();
    await page.getByText(delivered.trackingNumber).waitFor();
    await screenshot(page, 'console-shipments');
    await audit(page, 'shipments list');

    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.locator('.MuiMenu-list').getByText('Tracking status', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Tracking status' }).fill('delivered');
    await page.waitForURL(/trackingStatus/);
    await page.getByText(inTransit.trackingNumber).waitFor({ state: 'detached' });
    expect(await page.getByText(delivered.trackingNumber).isVisible()).toBe(true);

    await page.getByText(delivered.trackingNumber).click();
    await page.waitForURL(/\/show$/);
    await page.getByText('Checkpoints', { exact: true }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody tr').count()).toBe(checkpoints.body['hydra:totalItems']);
    expect(await page.locator('tbody').innerText()).toContain(
      checkpoints.body['hydra:member'][0].status,
    );
    await screenshot(page, 'console-shipment');
    await audit(page, 'shipment show');
    await context.close();
  });

  it('opens on what needs attention and how carriers perform, and shows a delivery window', async () => {
    // The sandbox tracks TM404…TM as an error: an exception to attend to.
    const exception = await createShipment(app, owner, {
      trackingNumber: testTrackingNumber('404'),
    });
    const owned = api(app, { token: owner.token });
    const counts: Record<string, number> = {};
    for (const { code } of ATTENTION_REASONS)
      counts[code] = (
        await owned.get(`/workspaces/${owner.workspaceId}/shipments?attention=${code}`).expect(200)
      ).body['hydra:totalItems'];
    expect(counts.exception).toBe(1);
    const performance = (
      await owned.get(`/workspaces/${owner.workspaceId}/carrier_performance`).expect(200)
    ).body['hydra:member'];
    expect(performance.length).toBeGreaterThan(0);

    const { context, page } = await signIn(owner.email);
    const attention = page.getByRole('region', { name: 'Needs attention' });
    for (const { code, label } of ATTENTION_REASONS) {
      const link = attention.getByRole('link', { name: new RegExp(label) });
      await link.filter({ hasText: String(counts[code]) }).waitFor();
    }
    const carriers = page.getByRole('region', { name: 'Carrier performance' });
    for (const row of performance) {
      const line = carriers.getByRole('row', { name: new RegExp(`^${row.carrier}\\b`) });
      await line.waitFor();
      expect(await line.getByRole('cell').first().innerText()).toBe(String(row.shipments));
    }
    await screenshot(page, 'console-dashboard');
    await audit(page, 'dashboard');
    await carriers.getByLabel('By destination').check();
    await carriers.getByRole('columnheader', { name: 'Destination' }).waitFor();

    // An attention count opens the shipments needing it.
    await attention.getByRole('link', { name: /Exception/ }).click();
    await page.waitForURL(/attention/);
    await page.getByText(exception.trackingNumber).waitFor();
    await page.getByText(inTransit.trackingNumber).waitFor({ state: 'detached' });
    await audit(page, 'shipments needing attention');
    // The filter is a choice of the four reasons, not a code to type.
    const reason = page.getByRole('combobox', { name: 'Attention' });
    expect(await reason.innerText()).toBe('Exception');
    await reason.click();
    await page.getByRole('option', { name: 'Late' }).click();
    await page.waitForURL(/late/);
    await page.getByText(exception.trackingNumber).waitFor({ state: 'detached' });

    // A parcel on its way shows its window in words.
    const shown = (await owned.get(`/shipments/${inTransit.id}`).expect(200)).body;
    await page.goto(
      `${base}/admin/#/shipments/${encodeURIComponent(`/shipments/${inTransit.id}`)}/show`,
    );
    await page.getByText('Delivery window', { exact: true }).waitFor();
    await page.getByText(windowText(shown.deliveryPrediction, 'en-US', 'Europe/Berlin')).waitFor();
    await page.getByText(basisText(shown.deliveryPrediction)).waitFor();
    await context.close();
  });

  it("edits a shipment's e-mail", async () => {
    const { context, page } = await signIn(owner.email);
    await page.goto(
      `${base}/admin/#/shipments/${encodeURIComponent(`/shipments/${delivered.id}`)}`,
    );
    const email = page.getByLabel('Email', { exact: true });
    await email.waitFor();
    expect(await email.inputValue()).toBe('first@example.test');
    await audit(page, 'shipment edit');
    // The API's violation (422) shows at its field, and nothing is saved. That 422 is
    // expected, not the browser's error.
    const before = pageErrors.length;
    await email.fill('not-an-email');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('This value is not a valid email address.').waitFor();
    // The notice says the form needs fixing (API Platform Admin's own would say "Server
    // communication error"), and the audit sees it whole (axeViolations waits out its fade-in).
    await page.getByText('The form is not valid. Please check for errors').waitFor();
    await audit(page, 'shipment edit with a violation');
    pageErrors.push(...pageErrors.splice(before).filter((e) => !/\b422\b/.test(e)));
    const kept = await api(app, { token: owner.token })
      .get(`/shipments/${delivered.id}`)
      .expect(200);
    expect(kept.body.email).toBe('first@example.test');
    await email.fill('changed@example.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element updated').waitFor();
    const after = await api(app, { token: owner.token })
      .get(`/shipments/${delivered.id}`)
      .expect(200);
    expect(after.body.email).toBe('changed@example.test');
    await context.close();
  });

  it('creates an order, then an item of it', async () => {
    const { context, page } = await signIn(owner.email);
    await page.getByRole('menuitem', { name: 'Orders' }).click();
    await page.getByRole('link', { name: 'Create' }).click();
    // Until the form is up, the list's "Sort by order numbers" header matches a loose label;
    // the fields' names start with theirs (a required one ends with " *").
    await page.waitForURL(/orders\/create/);
    const orderNumber = `CONSOLE-${Date.now()}`;
    await page.getByLabel(/^Order number/).fill(orderNumber);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element created').waitFor();
    const orders = await api(app, { token: owner.token })
      .get(`/orders?orderNumber=${orderNumber}`)
      .expect(200);
    expect(orders.body['hydra:member']).toHaveLength(1);
    const order = orders.body['hydra:member'][0];
    expect(order.workspace).toBe(`/workspaces/${owner.workspaceId}`);

    // From the order's page: its items, and a button that starts an item of this order.
    await page.goto(`${base}/admin/#/orders/${encodeURIComponent(`/orders/${order.id}`)}/show`);
    await page.getByText('No items.').waitFor();
    await page.getByRole('link', { name: 'Add an item' }).click();
    await page.waitForURL(/order_items\/create/);
    await page.getByLabel(/^Product name/).fill('Trail jacket');
    await page.getByLabel(/^Qty/).fill('2');
    await page.getByLabel('Price', { exact: true }).fill('49.90');
    await audit(page, 'order item create');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Element created').waitFor();
    const items = await api(app, { token: owner.token })
      .get(`/orders/${order.id}/items`)
      .expect(200);
    expect(items.body['hydra:member']).toEqual([
      expect.objectContaining({ productName: 'Trail jacket', qty: 2 }),
    ]);

    await page.goto(`${base}/admin/#/orders/${encodeURIComponent(`/orders/${order.id}`)}/show`);
    await page.getByText('Trail jacket').waitFor();
    await screenshot(page, 'console-order');
    await audit(page, 'order show');
    await context.close();
  });

  it('shows a read-only member no edit buttons, and the API refuses their writes (403)', async () => {
    const { context, page } = await signIn(reader.email);
    await page.getByRole('menuitem', { name: 'Shipments' }).click();
    await page.getByText(inTransit.trackingNumber).waitFor();
    expect(await page.getByRole('link', { name: 'Show' }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create' }).count()).toBe(0);
    await page.getByText(inTransit.trackingNumber).click();
    await page.waitForURL(/\/show$/);
    await page.getByText('Checkpoints', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    const token = await consoleToken(page);
    await api(app, { token })
      .put(`/shipments/${inTransit.id}`, { email: 'reader@example.test' })
      .expect(403);
    await api(app, { token })
      .post('/orders', { workspace: `/workspaces/${owner.workspaceId}`, orderNumber: 'RO-1' })
      .expect(403);
    await context.close();
  });

  it("lists custom fields by entity, and only the chosen workspace's checkpoints", async () => {
    await api(app, { token: owner.token })
      .post('/fields', {
        workspace: `/workspaces/${owner.workspaceId}`,
        entity: 'orders',
        code: 'gift_note',
        title: 'Gift note',
        fieldType: 'text',
      })
      .expect(201);
    // Another workspace of the team, with a tracked shipment: none of it shows in the first.
    const other = await addWorkspace(app, owner, 'Acme Wholesale');
    await createShipment(
      app,
      { ...owner, workspaceId: other },
      {
        trackingNumber: testTrackingNumber('200'),
      },
    );
    const { context, page } = await signIn(owner.email);

    // Fields are listed per entity: shipments' first, orders' when chosen.
    await page.getByRole('menuitem', { name: /fields/i }).click();
    const entity = page.getByRole('combobox', { name: 'Entity' });
    await entity.waitFor();
    expect(await entity.innerText()).toBe('Shipments');
    await entity.click();
    await page.getByRole('option', { name: 'Orders' }).click();
    await page.waitForURL(/orders/);
    await page.getByText('Gift note').waitFor();
    await audit(page, 'fields list');

    const listed = page.waitForResponse((r) => r.url().includes('/tracking_checkpoints?'));
    await page.getByRole('menuitem', { name: /checkpoints/i }).click();
    const answer = await listed;
    expect(new URL(answer.url()).searchParams.get('workspace.id')).toBe(owner.workspaceId);
    const mine = await api(app, { token: owner.token })
      .get(`/tracking_checkpoints?workspace.id=${owner.workspaceId}`)
      .expect(200);
    expect((await answer.json())['hydra:totalItems']).toBe(mine.body['hydra:totalItems']);
    const all = await api(app, { token: owner.token }).get('/tracking_checkpoints').expect(200);
    expect(all.body['hydra:totalItems']).toBeGreaterThan(mine.body['hydra:totalItems']);
    await context.close();
  });

  it('stays signed in past its access token: one refresh when it expires, one on a 401, one for all tabs', async () => {
    const { context, page } = await signIn(owner.email);
    type Stored = { accessToken: string; expiresAt: number; refreshToken?: string };
    const stored = () =>
      page.evaluate('JSON.parse(localStorage.getItem("console.token"))') as Promise<Stored>;
    const edit = (change: Partial<Stored>) =>
      page.evaluate(
        `localStorage.setItem("console.token", JSON.stringify({
          ...JSON.parse(localStorage.getItem("console.token")), ...${JSON.stringify(change)} }))`,
      );
    // Concurrent requests share one refresh: a rotated refresh token used twice would revoke
    // the session.
    let refreshes = 0;
    context.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/oauth/v2/token') refreshes++;
    });
    const signedIn = await stored();
    expect(signedIn.refreshToken).toEqual(expect.any(String));

    // Expired: refreshed before any request carries it.
    await edit({ expiresAt: Date.now() - 1000 });
    await page.goto(`${base}/admin/#/shipments`);
    await page.getByText(inTransit.trackingNumber).waitFor();
    const refreshed = await stored();
    expect(refreshes).toBe(1);
    expect(refreshed.accessToken).not.toBe(signedIn.accessToken);
    expect(refreshed.refreshToken).not.toBe(signedIn.refreshToken);
    expect(refreshed.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000);
    await audit(page, 'shipments list after a refresh');

    // A token the API refuses (401): every request of a fresh page waits for one refresh,
    // then is sent again. Those 401 answers are expected, not the browser's errors.
    const before = pageErrors.length;
    await edit({ accessToken: 'revoked-or-unknown-token' });
    await page.reload();
    await page.getByText(inTransit.trackingNumber).waitFor();
    const renewed = await stored();
    expect(refreshes).toBe(2);
    expect(renewed.accessToken).not.toBe(refreshed.accessToken);
    expect(renewed.refreshToken).not.toBe(refreshed.refreshToken);
    expect(page.url()).toMatch(/#\/shipments/);
    pageErrors.push(...pageErrors.splice(before).filter((e) => !/\b401\b/.test(e)));
    await api(app, { token: renewed.accessToken }).get(`/shipments/${delivered.id}`).expect(200);

    // The session is the browser's: a new tab is signed in. When the token expires under two
    // tabs at once, they refresh once between them (a second spend would revoke the session).
    const second = await context.newPage();
    watch(second, owner.email);
    await second.goto(`${base}/admin/#/shipments`);
    await second.getByText(inTransit.trackingNumber).waitFor();
    expect(refreshes).toBe(2);
    // A slow token endpoint: both tabs want a new token while the first refresh is under way.
    await context.route('**/oauth/v2/token', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    await edit({ expiresAt: Date.now() - 1000 });
    await Promise.all([page.reload(), second.reload()]);
    await Promise.all([page, second].map((p) => p.getByText(inTransit.trackingNumber).waitFor()));
    expect(refreshes).toBe(3);
    const shared = await stored();
    expect(shared.accessToken).not.toBe(renewed.accessToken);
    expect(await second.evaluate('JSON.parse(localStorage.getItem("console.token"))')).toEqual(
      shared,
    );
    await api(app, { token: shared.accessToken }).get(`/shipments/${delivered.id}`).expect(200);

    // The token endpoint out of reach is no refusal: the session stays, the page says why, and
    // the next try renews it. The failed requests are expected, not the browser's errors.
    await context.unroute('**/oauth/v2/token');
    await context.route('**/oauth/v2/token', (route) => route.abort());
    const beforeOutage = pageErrors.length;
    await edit({ expiresAt: Date.now() - 1000 });
    await page.reload();
    await page.getByText('The service cannot renew your session right now').first().waitFor();
    expect((await stored()).refreshToken).toBe(shared.refreshToken);
    expect(page.url()).toMatch(/#\/shipments/);
    await context.unroute('**/oauth/v2/token');
    await page.reload();
    await page.getByText(inTransit.trackingNumber).waitFor();
    expect((await stored()).refreshToken).not.toBe(shared.refreshToken);

    // The service rotated the token but its answer never arrived: the console still holds the
    // spent token, and its retry moments later is forgiven (README "Authentication").
    const beforeLost = (await stored()).refreshToken;
    await context.route('**/oauth/v2/token', async (route) => {
      await route.fetch();
      await route.abort();
    });
    await edit({ expiresAt: Date.now() - 1000 });
    await page.reload();
    await page.getByText('The service cannot renew your session right now').first().waitFor();
    expect((await stored()).refreshToken).toBe(beforeLost);
    await context.unroute('**/oauth/v2/token');
    await page.reload();
    await page.getByText(inTransit.trackingNumber).waitFor();
    expect((await stored()).refreshToken).not.toBe(beforeLost);
    pageErrors.push(...pageErrors.splice(beforeOutage).filter((e) => !/net::ERR_FAILED/.test(e)));
    await context.close();
  });

  it('made no request off the app, no script or CSP error, and no serious axe finding', () => {
    expect(browser.foreignRequests).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(serious).toEqual([]);
  });
});
