import { emailDue, wants, webhookDue, type WebhookHook } from './dispatch-rules';

const at = new Date('2026-03-01T10:20:30Z');
const now = new Date('2026-03-01T10:21:00Z');
const event = (type: string, payload: Record<string, unknown> = {}, ignored?: string) => ({
  type,
  payload,
  created_at: at,
  ignored_workflow_id: ignored ?? null,
});
const signed: WebhookHook = {
  id: 'w1',
  period: 'immediately',
  url: null,
  entity: null,
  event: null,
  field: null,
};
const reference = (filter: Partial<WebhookHook> = {}): WebhookHook => ({
  ...signed,
  url: 'https://erp.example.com/hook',
  ...filter,
});

describe('dispatch rules', () => {
  describe('wants', () => {
    it('sends shipment events to signed webhooks, nothing else', () => {
      expect(wants(signed, event('shipment.created'))).toBe(true);
      expect(wants(signed, event('order.created'))).toBe(false);
    });

    it('never echoes a write to the workflow that asked to be ignored', () => {
      expect(wants(signed, event('shipment.created', {}, 'w1'))).toBe(false);
      expect(wants(signed, event('shipment.created', {}, 'w2'))).toBe(true);
    });

    it('sends a reference-form workflow the changes its filter lets through', () => {
      const updated = event('order.updated', { changedFields: ['orderStatus'] });
      expect(wants(reference(), updated)).toBe(true);
      expect(wants(reference({ entity: 'orders', event: 'update' }), updated)).toBe(true);
      expect(wants(reference({ entity: 'shipments' }), updated)).toBe(false);
      expect(wants(reference({ event: 'create' }), updated)).toBe(false);
      expect(wants(reference({ field: 'orderStatus' }), updated)).toBe(true);
      expect(wants(reference({ field: 'email' }), updated)).toBe(false);
    });

    it('sends a reference-form workflow no event its body cannot carry', () => {
      expect(wants(reference(), event('import.finished'))).toBe(false);
    });
  });

  describe('webhookDue (the periods)', () => {
    it('is due now when immediate', () => {
      expect(webhookDue('immediately', event('shipment.created'), now)).toEqual({
        held: false,
        dueAt: now,
      });
    });

    it('waits for the next full hour or midnight (UTC) after the event', () => {
      expect(webhookDue('hourly', event('shipment.created'), now).dueAt).toEqual(
        new Date('2026-03-01T11:00:00Z'),
      );
      expect(webhookDue('daily', event('shipment.created'), now).dueAt).toEqual(
        new Date('2026-03-02T00:00:00Z'),
      );
    });

    it('holds manual ones until POST /workflows/execute', () => {
      expect(webhookDue('manual', event('shipment.created'), now)).toEqual({
        held: true,
        dueAt: now,
      });
    });
  });

  describe('emailDue', () => {
    it("is the event's time plus the notification's delay, or now without one", () => {
      expect(emailDue('2h', event('shipment.created'), now)).toEqual(
        new Date('2026-03-01T12:20:30Z'),
      );
      expect(emailDue(null, event('shipment.created'), now)).toBe(now);
    });
  });
});
