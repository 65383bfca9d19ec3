import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { queryOne, reuseGenericPlans } from '../src/database/query';

/** `reuseGenericPlans` (a store import's share): for the transaction only, never the pool. */
describe('reuseGenericPlans', () => {
  let db: DataSource;
  const mode = async (runner: Parameters<typeof queryOne>[0]) =>
    (await queryOne<{ plan_cache_mode: string }>(runner, 'SHOW plan_cache_mode'))!.plan_cache_mode;

  beforeAll(async () => {
    // One connection: what the transaction set would show on the next statement if it leaked.
    db = await createDataSource(process.env.DATABASE_URL!, { extra: { max: 1 } }).initialize();
  });
  afterAll(() => db.destroy());

  it('forces generic plans inside the transaction and ends with it', async () => {
    await db.transaction(async (em) => {
      expect(await mode(em)).toBe('auto');
      await reuseGenericPlans(em);
      expect(await mode(em)).toBe('force_generic_plan');
    });
    expect(await mode(db)).toBe('auto');
  });

  it('does nothing outside a transaction', async () => {
    await reuseGenericPlans(db);
    expect(await mode(db)).toBe('auto');
  });

  it('ends with a transaction that fails', async () => {
    await expect(
      db.transaction(async (em) => {
        await reuseGenericPlans(em);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await mode(db)).toBe('auto');
  });
});
