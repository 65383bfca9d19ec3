import type { EventDeliveryTarget, EventDeliveryTargets } from './delivery-targets';
import type { ClaimedDelivery } from './event-delivery-store';
import type { OutboxRow } from './outbox-store';
import { attemptTargetGroup, groupByTarget } from './targeted-attempts';

const delivery = (
  eventId: string,
  workflowId = 'wf-1',
  target: string | null = 'store',
): ClaimedDelivery => ({
  id: `d-${eventId}`,
  outbox_event_id: eventId,
  workspace_id: 'ws',
  workflow_id: workflowId,
  email_notification_id: null,
  target,
  attempts: 1,
});
const row = (id: string, at: string): OutboxRow => ({
  id,
  workspace_id: 'ws',
  type: 'shipment.status_changed',
  aggregate_type: 'shipment',
  aggregate_id: 's-1',
  payload: { trackingStatus: 'delivered' },
  created_at: new Date(at),
});
const targets = (target?: Partial<EventDeliveryTarget>) =>
  ({
    byName: (name: string) => (target && name === 'store' ? target : undefined),
  }) as EventDeliveryTargets;

describe('targeted attempts', () => {
  it('groups deliveries by target and workflow', () => {
    const groups = groupByTarget([delivery('e1'), delivery('e2', 'wf-2'), delivery('e3')]);
    expect(groups.map((g) => g.map((d) => d.outbox_event_id))).toEqual([['e1', 'e3'], ['e2']]);
  });

  it('hands the target its events oldest first and answers per delivery', async () => {
    const seen: string[] = [];
    const outcomes = await attemptTargetGroup(
      targets({
        deliver: async (_wf, events) => {
          seen.push(...events.map((e) => e.id));
          return events.map((e) => ({
            ok: e.id === 'e2',
            permanent: false,
            error: e.id === 'e2' ? null : 'down',
          }));
        },
      }),
      [delivery('e1'), delivery('e2'), delivery('gone')],
      [row('e1', '2024-05-02T00:00:00Z'), row('e2', '2024-05-01T00:00:00Z')],
      new Date(),
    );
    expect(seen).toEqual(['e2', 'e1']);
    expect(outcomes).toEqual([
      { ok: false, permanent: false, error: 'down' },
      { ok: true, permanent: false, error: null },
      { ok: false, permanent: true, error: 'the event no longer exists' },
    ]);
  });

  it('retries all when the target throws, and gives up without a target', async () => {
    const rows = [row('e1', '2024-05-01T00:00:00Z')];
    const thrown = await attemptTargetGroup(
      targets({ deliver: async () => Promise.reject(new Error('boom')) }),
      [delivery('e1')],
      rows,
      new Date(),
    );
    expect(thrown).toEqual([{ ok: false, permanent: false, error: 'boom' }]);
    const none = await attemptTargetGroup(targets(), [delivery('e1')], rows, new Date());
    expect(none).toEqual([{ ok: false, permanent: true, error: 'no delivery target store' }]);
  });
});
