import type { NestExpressApplication } from '@nestjs/platform-express';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import createClient from 'openapi-fetch';
import { closeTestApp, createTestApp, testAppUrl } from '../support/app';
import type { paths } from './schema';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/**
 * The README's quick start and a shipment's life, through a client generated from the served
 * `/docs.json` only (openapi-typescript + openapi-fetch; `npm run openapi:client` writes
 * ./schema.d.ts, CI regenerates it before the typecheck). A route, parameter or field this
 * test uses that the description loses fails the typecheck; one the API loses fails here.
 */
describe('the generated TypeScript client', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ listen: true });
    base = testAppUrl(app);
  });
  afterAll(() => closeTestApp(app));

  async function bootstrap(): Promise<Record<string, string>> {
    const { stdout } = await run(
      'npm',
      [
        'run',
        'cli',
        '--',
        'bootstrap',
        '--email',
        `client-${randomUUID()}@example.test`,
        '--password',
        'generated client password',
        '--team',
        'Acme',
        '--workspace',
        'Acme Store',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, PORT: new URL(base).port, PUBLIC_URL: base, LOG_LEVEL: 'warn' },
        timeout: 120_000,
      },
    );
    return JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1));
  }

  it('quick start, then create, list with filters, read checkpoints, update and delete a shipment', async () => {
    const creds = await bootstrap();
    const anonymous = createClient<paths>({ baseUrl: base });
    const token = await anonymous.GET('/oauth/v2/token', {
      params: {
        query: {
          grant_type: 'client_credentials',
          client_id: creds.client_id,
          client_secret: creds.client_secret,
        },
      },
    });
    expect(token.response.status).toBe(200);
    const accessToken = token.data?.access_token ?? '';
    expect(accessToken).toEqual(expect.any(String));

    // Typed for the media type it asks for: records come in CSV and HTML too.
    const client = createClient<paths, 'application/json'>({
      baseUrl: base,
      headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    });
    const workspaces = await client.GET('/workspaces');
    expect(workspaces.response.status).toBe(200);
    expect(workspaces.data).toEqual([expect.objectContaining({ id: creds.workspace_id })]);

    const trackingNumber = `TM102${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}TM`;
    const created = await client.POST('/shipments', {
      body: {
        workspace: `/workspaces/${creds.workspace_id}`,
        trackingNumber,
        email: 'alex@example.test',
      },
    });
    expect(created.response.status).toBe(201);
    const shipment = { id: created.data?.id ?? '', trackingStatus: created.data?.trackingStatus };
    expect(shipment.trackingStatus).toBe('in_transit');

    const listed = await client.GET('/shipments', {
      params: { query: { trackingStatus: 'in_transit', trackingNumber } },
    });
    expect(listed.response.status).toBe(200);
    expect((listed.data as Array<{ id: string }>).map((s) => s.id)).toEqual([shipment.id]);
    const none = await client.GET('/shipments', {
      params: { query: { trackingStatus: 'delivered', trackingNumber } },
    });
    expect(none.data).toEqual([]);

    const checkpoints = await client.GET('/shipments/{id}/checkpoints', {
      params: { path: { id: shipment.id } },
    });
    expect(checkpoints.response.status).toBe(200);
    expect((checkpoints.data as unknown[]).length).toBeGreaterThan(0);

    const updated = await client.PUT('/shipments/{id}', {
      params: { path: { id: shipment.id } },
      body: { email: 'sam@example.test' },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data).toMatchObject({ id: shipment.id, email: 'sam@example.test' });

    const removed = await client.DELETE('/shipments/{id}', {
      params: { path: { id: shipment.id } },
    });
    expect(removed.response.status).toBe(204);
    const gone = await client.GET('/shipments/{id}', { params: { path: { id: shipment.id } } });
    expect(gone.response.status).toBe(404);
  }, 180_000);
});
