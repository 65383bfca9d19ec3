import type { INestApplication } from '@nestjs/common';
import { api } from '../support/http';
import type { Tenant } from './tenant.factory';

let sequence = 0;

/** A tracking number the sandbox carrier (tm-test) claims alone: unique per call. */
export function testTrackingNumber(prefix = '102'): string {
  sequence += 1;
  const unique = `${Date.now().toString(36)}${process.pid.toString(36)}${sequence}`.toUpperCase();
  return `TM${prefix}${unique}TM`;
}

/** POST /shipments in the tenant's workspace; returns the created record. */
export async function createShipment(
  app: INestApplication,
  tenant: Tenant,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token })
    .post('/shipments', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      trackingNumber: testTrackingNumber(),
      ...body,
    })
    .expect(201);
  return res.body;
}

/** POST /statuses in the tenant's workspace. */
export async function createStatus(
  app: INestApplication,
  tenant: Tenant,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token })
    .post('/statuses', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      entity: 'shipments',
      ...body,
    })
    .expect(201);
  return res.body;
}

let orderSequence = 0;

/** A unique order number. */
export function testOrderNumber(): string {
  orderSequence += 1;
  return `ON-${Date.now().toString(36)}-${process.pid}-${orderSequence}`;
}

/** POST /orders in the tenant's workspace. */
export async function createOrder(
  app: INestApplication,
  tenant: Tenant,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token })
    .post('/orders', {
      workspace: `/workspaces/${tenant.workspaceId}`,
      orderNumber: testOrderNumber(),
      orderType: 'customer',
      ...body,
    })
    .expect(201);
  return res.body;
}

/** POST /order_items on an order. */
export async function createOrderItem(
  app: INestApplication,
  tenant: Tenant,
  order: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token })
    .post('/order_items', { order, productName: 'Jacket', qty: 1, price: '10', ...body })
    .expect(201);
  return res.body;
}

/** POST /shipment_items. */
export async function createShipmentItem(
  app: INestApplication,
  tenant: Tenant,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await api(app, { token: tenant.token }).post('/shipment_items', body).expect(201);
  return res.body;
}
