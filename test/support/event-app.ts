import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { closeTestApp, createTestApp } from './app';
import { TestSmtp, startTestSmtp } from './smtp';
import { WebhookReceiver, startWebhookReceiver } from './webhook-receiver';

/** Quick retries for specs that walk a delivery through its attempts. */
export const RETRIES = {
  EVENT_DELIVERY_RETRY_BASE_SECONDS: '30',
  EVENT_DELIVERY_MAX_ATTEMPTS: '3',
};

/**
 * Marks dispatched and delivered the outbox events still undispatched in this worker's
 * database: those of the spec files it ran before, most never dispatched (tens of thousands),
 * which a delivery round takes oldest first. Without this, `EventDelivery.runUntilIdle` (at
 * most 1 000 rounds of a batch) could stop before it reaches a spec's own events. Call before
 * the spec makes any.
 */
export async function setAsideEarlierEvents(db: DataSource): Promise<void> {
  await db.query(
    `UPDATE outbox_event SET dispatched_at = now(), delivered_at = now() WHERE dispatched_at IS NULL`,
  );
}

/** What `useEventApp` starts for a spec: read it in tests (filled once beforeAll ran). */
export interface EventApp {
  app: NestExpressApplication;
  db: DataSource;
  /** A local webhook target (WEBHOOK_ALLOWED_HOSTS lets the app post to loopback). */
  receiver: WebhookReceiver;
  /** The SMTP server the app's SMTP_URL names, when asked for. */
  smtp?: TestSmtp;
}

/**
 * Registers the spec's beforeAll/afterAll for an app whose outbox delivers to a local webhook
 * receiver (and, with `smtp`, mails to a local SMTP server), with `env` set while it runs; the
 * environment is restored and everything closed after the spec.
 */
export function useEventApp(options: { smtp?: boolean; env?: Record<string, string> } = {}) {
  const ctx = {} as EventApp;
  const saved = { ...process.env };
  beforeAll(async () => {
    ctx.receiver = await startWebhookReceiver();
    if (options.smtp) {
      ctx.smtp = await startTestSmtp();
      process.env.SMTP_URL = ctx.smtp.url;
    }
    process.env.WEBHOOK_ALLOWED_HOSTS = '127.0.0.1';
    Object.assign(process.env, options.env);
    ctx.app = await createTestApp();
    ctx.db = ctx.app.get(DataSource);
    await setAsideEarlierEvents(ctx.db);
  });
  afterAll(async () => {
    await closeTestApp(ctx.app);
    await ctx.receiver?.close();
    await ctx.smtp?.close();
    process.env = saved;
  });
  return ctx;
}
