import { WORKFLOW_TYPES, firstDueAt, workflowType } from './workflow-types';

describe('workflow types', () => {
  it('knows its types only', () => {
    expect(workflowType('webhook')).toBe(WORKFLOW_TYPES.webhook);
    expect(workflowType('toString')).toBeUndefined();
    expect(workflowType('nope')).toBeUndefined();
  });

  it('only webhooks have an executor', () => {
    for (const [name, spec] of Object.entries(WORKFLOW_TYPES)) {
      expect(spec.passive).toBe(name !== 'webhook');
    }
  });
});

describe('firstDueAt', () => {
  const at = new Date('2025-03-10T14:25:13.500Z');

  it('is the event time for immediate workflows', () => {
    expect(firstDueAt('immediately', at)).toEqual(at);
  });

  it('is the next full hour or midnight (UTC) for hourly and daily ones', () => {
    expect(firstDueAt('hourly', at)).toEqual(new Date('2025-03-10T15:00:00.000Z'));
    expect(firstDueAt('daily', at)).toEqual(new Date('2025-03-11T00:00:00.000Z'));
    expect(firstDueAt('daily', new Date('2025-12-31T23:59:59Z'))).toEqual(
      new Date('2026-01-01T00:00:00.000Z'),
    );
  });

  it('is never for manual ones (POST /workflows/execute runs them)', () => {
    expect(firstDueAt('manual', at)).toBeNull();
  });
});
