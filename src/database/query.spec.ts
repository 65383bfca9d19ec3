import { query, queryOne } from './query';

/** A runner answering what TypeORM or pg would for one statement. */
const answering = (answer: unknown) => ({ query: async () => answer });

describe('query', () => {
  it("reads TypeORM's [rows, count] answer of UPDATE ... RETURNING as the rows", async () => {
    expect(await query(answering([[{ id: 'a' }], 1]), 'UPDATE ...')).toEqual([{ id: 'a' }]);
    expect(await query(answering([[], 0]), 'DELETE ...')).toEqual([]);
  });

  it('reads plain row arrays and pg results', async () => {
    expect(await query(answering([{ id: 'a' }, { id: 'b' }]), 'SELECT ...')).toHaveLength(2);
    expect(await query(answering({ rows: [{ id: 'c' }], rowCount: 1 }), 'SELECT ...')).toEqual([
      { id: 'c' },
    ]);
  });

  it('answers the first row, or undefined', async () => {
    expect(await queryOne<{ id: string }>(answering([{ id: 'a' }]), 'SELECT ...')).toEqual({
      id: 'a',
    });
    expect(await queryOne(answering([]), 'SELECT ...')).toBeUndefined();
  });

  it('prepares statements on the connection of an open transaction', async () => {
    const sent: unknown[] = [];
    const client = { query: async (q: unknown) => (sent.push(q), { rows: [{ n: 1 }] }) };
    const runner = {
      query: async () => [],
      queryRunner: { isTransactionActive: true, databaseConnection: client },
    };
    expect(await query(runner, 'SELECT 1 AS n', [])).toEqual([{ n: 1 }]);
    expect(sent[0]).toMatchObject({ text: 'SELECT 1 AS n', name: expect.stringMatching(/^h/) });
  });
});
