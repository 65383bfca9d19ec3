import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source';
import { queryOne, reuseGenericPlans } from '../src/database/query';
import { statIndex } from '../src/predictions/model/stats';
import { PredictionStore } from '../src/predictions/prediction-store';

/**
 * A new shipment's prediction reads its team's stats at its five lane keys
 * (PredictionStore.readBatch). Inside a store import's share the statement runs on its generic
 * plan, which cannot know how few keys the arrays hold: it used to hash-join a scan of every
 * team's stats, once per imported parcel. The stats here are many teams' (analysed, so the
 * planner's choice is real); the read must find its keys' rows by the index.
 */
describe("a prediction's stats read under generic plans", () => {
  let db: DataSource;
  const team = randomUUID();
  const others: string[] = [];
  const keys = ['tm-test|ES|CN|97', 'tm-test|ES|CN', 'tm-test|CN', 'tm-test', ''];

  beforeAll(async () => {
    db = await createDataSource(process.env.DATABASE_URL!).initialize();
    for (let i = 0; i < 60; i++) others.push(randomUUID());
    // 60 other teams with the same keys, 5 delta rows each: 1 500 rows (a large table would
    // steer even a generic plan to the index); the team's own below.
    await db.query(
      `INSERT INTO delivery_stat (team_id, level, key, idx, n)
       SELECT t.id, l.level, ($2::text[])[l.level + 1], ARRAY[$3::int], ARRAY[1]
         FROM unnest($1::uuid[]) AS t(id), generate_series(0, 4) AS l(level), generate_series(1, 5)`,
      [others, keys, statIndex(0, 0, 3)],
    );
    await db.query(
      `INSERT INTO delivery_stat (team_id, level, key, idx, n)
       SELECT $1, l.level, ($2::text[])[l.level + 1], ARRAY[$3::int], ARRAY[l.level + 1]
         FROM generate_series(0, 4) AS l(level)`,
      [team, keys, statIndex(0, 0, 5)],
    );
    await db.query('ANALYZE delivery_stat');
  });

  afterAll(async () => {
    await db.query('DELETE FROM delivery_stat WHERE team_id = ANY($1::uuid[])', [
      [team, ...others],
    ]);
    await db.destroy();
  });

  it("reads the team's keys through the index, and only them", async () => {
    await db.transaction(async (em) => {
      await reuseGenericPlans(em);
      const scans = () =>
        queryOne<{ seq: string; idx: string }>(
          em,
          `SELECT seq_scan AS seq, idx_scan AS idx FROM pg_stat_xact_user_tables
            WHERE relname = 'delivery_stat'`,
        );
      const before = (await scans())!;
      const read = await new PredictionStore(db).readBatch(
        em,
        [randomUUID()],
        [{ teamId: team, keys }],
      );
      const after = (await scans())!;
      expect(Number(after.seq) - Number(before.seq)).toBe(0);
      expect(Number(after.idx) - Number(before.idx)).toBeGreaterThan(0);
      expect(read.contributions.size).toBe(0);
      const stats = read.stats.get(team)!;
      keys.forEach((key, level) =>
        expect(stats.vector(level, key)?.counts[statIndex(0, 0, 5)]).toBe(level + 1),
      );
    });
  });
});
