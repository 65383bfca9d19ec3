import {
  ACCEPTED_IN_SHENZHEN,
  type FakeSeventeenTrackJourney,
} from '../fakes/seventeen-track-fake';
import type { INestApplication } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { DataSource } from 'typeorm';
import { COMPILED_FORMATS } from '../../src/tracking/carriers/carrier-detector';
import {
  generateTrackingNumber,
  seededRandom,
} from '../../src/tracking/carriers/tracking-number-generator';
import { api } from '../support/http';
import { until } from '../support/until';
import { JOB_SCHEMA } from '../../src/jobs/job-data-store';
import { REROUTE_QUEUE } from '../../src/tracking/providers/remote/credentials-retirement';
import type { Tenant } from '../factories/tenant.factory';

/**
 * Helpers shared by the e2e specs of every tracking provider (credentials, real-format numbers,
 * what a shipment and its checkpoints look like after a refresh or a push).
 */

/**
 * The fakes listen on loopback, which a team's tracking credentials may not reach unless
 * TRACKING_PROVIDER_ALLOWED_HOSTS lists it (as an operator would list a local relay): set for
 * the spec's app (call it before the beforeAll that creates the app), restored after.
 */
export function allowLoopbackProviders(): void {
  let saved: string | undefined;
  beforeAll(() => {
    saved = process.env.TRACKING_PROVIDER_ALLOWED_HOSTS;
    process.env.TRACKING_PROVIDER_ALLOWED_HOSTS = '127.0.0.1';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TRACKING_PROVIDER_ALLOWED_HOSTS;
    else process.env.TRACKING_PROVIDER_ALLOWED_HOSTS = saved;
  });
}

/** POST /credentials of a tracking provider type for the tenant's team; returns its id. */
export async function createProviderCredentials(
  app: INestApplication,
  tenant: Tenant,
  type: string,
  parameters: Record<string, unknown>,
  secrets: Record<string, string>,
): Promise<string> {
  const res = await api(app, { token: tenant.token })
    .post('/credentials', { type, team: `/teams/${tenant.teamId}`, parameters, secrets })
    .expect(201);
  await rerouted(app, tenant.teamId);
  return res.body.id as string;
}

/**
 * A change of credentials sends the `tracking.reroute` job, which re-tracks the team's
 * shipments on its own: wait for the team's jobs before tracking by hand, or both register a
 * number. Only the team's: another team's job (another test's) is not this test's to wait for.
 */
export async function rerouted(app: INestApplication, teamId: string): Promise<void> {
  const db = app.get(DataSource);
  const unfinished = (team: string | null) =>
    db.query(
      `SELECT data->>'teamId' AS team, state, retry_count, start_after, started_on
         FROM ${JOB_SCHEMA}.job
        WHERE name = $1 AND state < 'completed' AND ($2::text IS NULL OR data->>'teamId' = $2)`,
      [REROUTE_QUEUE, team],
    ) as Promise<unknown[]>;
  try {
    await until(async () => (await unfinished(teamId)).length === 0);
  } catch (error) {
    // What holds the queue, so a timeout in CI says why (a stuck job, a retry, a backlog).
    const queue = JSON.stringify(await unfinished(null));
    throw new Error(`${(error as Error).message}: team ${teamId}; reroute jobs ${queue}`);
  }
}

/** A valid UPU S10 number (e.g. RR123456785CN) with a random serial: unique enough per test. */
export function s10Number(country = 'CN', prefix = 'RR'): string {
  const serial = String(randomInt(0, 100_000_000)).padStart(8, '0');
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...serial].reduce((acc, d, i) => acc + Number(d) * weights[i], 0);
  const check = 11 - (sum % 11);
  const digit = check === 10 ? 0 : check === 11 ? 5 : check;
  return `${prefix}${serial}${digit}${country}`;
}

/** A valid number of a carrier format (e.g. `ups-1z`, check digit computed), random each call. */
export function formatNumber(formatId: string): string {
  const format = COMPILED_FORMATS.find((f) => f.id === formatId);
  if (!format) throw new Error(`no tracking number format ${formatId}`);
  return generateTrackingNumber(format, seededRandom(randomInt(0, 2 ** 31)));
}

/** The shipment as the API shows it (plain JSON). */
export async function getShipment(
  app: INestApplication,
  tenant: Tenant,
  id: string,
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token }).json().get(`/shipments/${id}`).expect(200);
  return res.body;
}

/**
 * The shipment once its first check is done: a shipment routed to a remote provider is
 * tracked by a `tracking.track` job right after its create (never inside the create's
 * transaction), so tests wait for it (polling, bounded).
 */
export async function waitForTracked(
  app: INestApplication,
  tenant: Tenant,
  id: string,
  timeoutMs = 20_000,
): Promise<Record<string, any>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await app
      .get(DataSource)
      .query(`SELECT last_tracked_at, tracking_error FROM shipment WHERE id = $1`, [id]);
    if (row?.last_tracked_at || row?.tracking_error) return getShipment(app, tenant, id);
    if (Date.now() > until) throw new Error(`shipment ${id} was not tracked in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The shipment's checkpoints, oldest first (plain JSON). */
export async function getCheckpoints(
  app: INestApplication,
  tenant: Tenant,
  id: string,
): Promise<Array<Record<string, any>>> {
  const res = await api(app, { token: tenant.token })
    .json()
    .get(`/shipments/${id}/checkpoints?order[checkpointDate]=asc`)
    .expect(200);
  return res.body as Array<Record<string, any>>;
}

/** Scheduling columns the API does not show. */
export async function trackingRow(
  app: INestApplication,
  id: string,
): Promise<{
  next_check_at: Date | null;
  tracking_error: string | null;
  tracking_attempts: number;
}> {
  const [row] = await app
    .get(DataSource)
    .query(`SELECT next_check_at, tracking_error, tracking_attempts FROM shipment WHERE id = $1`, [
      id,
    ]);
  return row;
}

/**
 * Inserts shipments straight into the workspace (as an import would), created a day before
 * `dueAt` and due then; returns their ids in the order of `numbers`.
 */
export async function insertShipments(
  app: INestApplication,
  workspaceId: string,
  numbers: readonly string[],
  carrier: string | null,
  dueAt: Date,
): Promise<string[]> {
  const rows: Array<{ id: string }> = await app.get(DataSource).query(
    `INSERT INTO shipment (workspace_id, tracking_number, origin_carrier, created_at, next_check_at)
     SELECT $1, n, $3, $4::timestamptz - interval '1 day', $4
       FROM unnest($2::text[]) WITH ORDINALITY AS u(n, i) ORDER BY i RETURNING id`,
    [workspaceId, numbers, carrier, dueAt],
  );
  return rows.map((r) => r.id);
}

/** 17TRACK's carrier code of China Post. */
export const CHINA_POST = 3011;

/** A China Post parcel just picked up in Shenzhen, as a 17TRACK fake tells it. */
export function pickedUpInChina(): FakeSeventeenTrackJourney {
  return {
    carrier: CHINA_POST,
    status: 'InTransit',
    subStatus: 'InTransit_PickedUp',
    origin: 'CN',
    destination: 'US',
    events: [ACCEPTED_IN_SHENZHEN],
  };
}
