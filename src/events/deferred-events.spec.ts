import type { SqlRunner } from '../database/query';
import { deferEvents, deferredBuffer, takeDeferred } from './deferred-events';
import { recordEvents, withDeferredEvents } from './outbox';
import type { OutboxEvent } from './outbox-store';

/** A runner in a transaction at `depth` (1: top level), recording the statements it runs. */
function runner(depth = 1, active = true) {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const queryRunner = { isTransactionActive: active, transactionDepth: depth };
  const em = {
    queryRunner,
    query: (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      return Promise.resolve([]);
    },
  };
  return { em: em as SqlRunner, queryRunner, statements };
}

const event = (n: number): OutboxEvent => ({
  type: 'order.created',
  workspaceId: null,
  aggregateType: 'order',
  aggregateId: `00000000-0000-4000-8000-00000000000${n}`,
  payload: { n },
});

const inserted = (s: { params: unknown[] }) =>
  (JSON.parse(s.params[0] as string) as Array<{ payload: { n: number } }>).map((e) => e.payload.n);

describe('deferred outbox events', () => {
  it('writes at once when the transaction did not ask to defer', async () => {
    const { em, statements } = runner();
    await recordEvents(em, [event(1)]);
    expect(statements).toHaveLength(1);
  });

  it('writes the events of a transaction in one statement at its end', async () => {
    const { em, statements } = runner();
    await withDeferredEvents(em, async () => {
      await recordEvents(em, [event(1)]);
      await recordEvents(em, [event(2), event(3)]);
      expect(statements).toHaveLength(0);
    });
    expect(statements).toHaveLength(1);
    expect(inserted(statements[0])).toEqual([1, 2, 3]);
    expect(deferredBuffer(em)).toBeUndefined();
  });

  it('writes nothing when the work fails, and defers no more', async () => {
    const { em, statements } = runner();
    await expect(
      withDeferredEvents(em, async () => {
        await recordEvents(em, [event(1)]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(statements).toHaveLength(0);
    await recordEvents(em, [event(2)]);
    expect(statements).toHaveLength(1);
  });

  it('writes at once inside a savepoint, which may roll back with its events', async () => {
    const { em, queryRunner, statements } = runner();
    deferEvents(em);
    await recordEvents(em, [event(1)]);
    queryRunner.transactionDepth = 2;
    await recordEvents(em, [event(2)]);
    expect(statements.map(inserted)).toEqual([[2]]);
    queryRunner.transactionDepth = 1;
    expect(takeDeferred(em).map((e) => e.payload.n)).toEqual([1]);
  });

  it('defers nothing outside a transaction', async () => {
    const { em, statements } = runner(1, false);
    deferEvents(em);
    await recordEvents(em, [event(1)]);
    expect(statements).toHaveLength(1);
  });
});
