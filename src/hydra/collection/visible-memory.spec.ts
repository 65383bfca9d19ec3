import type { Principal } from '../../access/principal';
import type { SqlRunner } from '../../database/query';
import { VisibleMemory } from './visible-memory';

function runner(depth = 1) {
  const queryRunner = { isTransactionActive: true, transactionDepth: depth };
  return { em: { queryRunner, query: () => Promise.resolve([]) } as SqlRunner, queryRunner };
}
const alice = { userId: 'alice' } as unknown as Principal;
const bob = { userId: 'bob' } as unknown as Principal;

describe('VisibleMemory', () => {
  it('remembers nothing unless the transaction asked', () => {
    const { em } = runner();
    VisibleMemory.saw(em, alice, 'order', '1');
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(false);
  });

  it('remembers per principal and table, until something is deleted', () => {
    const { em } = runner();
    VisibleMemory.start(em);
    VisibleMemory.saw(em, alice, 'order', '1');
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(true);
    expect(VisibleMemory.seen(em, bob, 'order', '1')).toBe(false);
    expect(VisibleMemory.seen(em, alice, 'shipment', '1')).toBe(false);
    VisibleMemory.forget(em);
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(false);
    VisibleMemory.saw(em, alice, 'order', '1');
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(true);
  });

  it('does not remember what a savepoint saw (it may roll back the row)', () => {
    const { em, queryRunner } = runner(2);
    VisibleMemory.start(em);
    VisibleMemory.saw(em, alice, 'order', '1');
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(false);
    queryRunner.transactionDepth = 1;
    VisibleMemory.saw(em, alice, 'order', '1');
    queryRunner.transactionDepth = 2;
    expect(VisibleMemory.seen(em, alice, 'order', '1')).toBe(true);
  });

  it('remembers facts about references like the references: asked, top level, until forgotten', () => {
    const { em, queryRunner } = runner();
    VisibleMemory.note(em, 'workflow.workspace/1', 'w1');
    expect(VisibleMemory.recall(em, 'workflow.workspace/1')).toBeUndefined();
    VisibleMemory.start(em);
    queryRunner.transactionDepth = 2;
    VisibleMemory.note(em, 'workflow.workspace/1', 'w1');
    expect(VisibleMemory.recall(em, 'workflow.workspace/1')).toBeUndefined();
    queryRunner.transactionDepth = 1;
    VisibleMemory.note(em, 'workflow.workspace/1', 'w1');
    expect(VisibleMemory.recall(em, 'workflow.workspace/1')).toBe('w1');
    VisibleMemory.forget(em);
    expect(VisibleMemory.recall(em, 'workflow.workspace/1')).toBeUndefined();
  });
});
