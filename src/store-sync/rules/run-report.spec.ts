import {
  addOutcome,
  emptyCounts,
  errorLines,
  MAX_ERROR_LINES,
  runSummary,
  type OrderImportOutcome,
} from './run-report';

const outcome = (fields: Partial<OrderImportOutcome>): OrderImportOutcome => ({
  order: 'created',
  shipmentsCreated: 0,
  shipmentsUpdated: 0,
  shipmentsMoved: 0,
  shipmentsRemoved: 0,
  problems: [],
  ...fields,
});

describe('run counts and report', () => {
  it('adds what each order did', () => {
    const counts = emptyCounts();
    addOutcome(counts, outcome({ shipmentsCreated: 2 }));
    addOutcome(counts, outcome({ order: 'updated', shipmentsMoved: 1, shipmentsRemoved: 1 }));
    addOutcome(counts, outcome({ order: 'unchanged' }));
    addOutcome(counts, outcome({ order: 'failed' }));
    expect(counts).toMatchObject({
      ordersRead: 4,
      ordersCreated: 1,
      ordersUpdated: 1,
      ordersUnchanged: 1,
      ordersFailed: 1,
      shipmentsCreated: 2,
      shipmentsMoved: 1,
      shipmentsRemoved: 1,
    });
  });

  it('lists errors by store record, the run’s reason first, capped', () => {
    expect(errorLines([], null)).toBeNull();
    expect(
      errorLines(
        [{ storeRecordId: '900', message: 'trackingNumber:\n bad' }],
        'Shopify store unavailable: HTTP 503',
      ),
    ).toBe('Shopify store unavailable: HTTP 503\n[900] trackingNumber: bad');
    const many = Array.from({ length: MAX_ERROR_LINES + 3 }, (_, i) => ({
      storeRecordId: `${i}`,
      message: 'x',
    }));
    const lines = errorLines(many, null)!.split('\n');
    expect(lines).toHaveLength(MAX_ERROR_LINES + 1);
    expect(lines[lines.length - 1]).toBe('... and 3 more');
  });

  it('summarises the run in one line', () => {
    const counts = { ...emptyCounts(), ordersRead: 3, ordersCreated: 3, webhooksReceived: 1 };
    expect(runSummary(counts, { pulled: true, since: new Date('2024-05-01T00:00:00Z') })).toMatch(
      /^read 3 order\(s\) changed since 2024-05-01T00:00:00.000Z \(1 from webhooks\): 3 created/,
    );
  });
});
