import { DataSource } from 'typeorm';
import { backtestPredictionsCommand } from '../src/cli/commands/backtest-predictions.command';
import { rebuildPredictionsCommand } from '../src/cli/commands/rebuild-predictions.command';
import { seedCommand } from '../src/cli/commands/seed.command';
import type { CliContext } from '../src/cli/cli-command';
import { createDataSource } from '../src/database/data-source';
import { runBacktest } from '../src/predictions/backtest/backtest';
import { DEMO_LANES, generateHistory } from '../src/predictions/history/history-generator';
import { predictionTools } from '../src/predictions/prediction-tools';

/**
 * The seeder loads a history drawn from known per-lane distributions (DEMO_LANES), and the
 * backtest anyone can run (`backtest-predictions`) reads it back through the stores: the same
 * report as the in-memory replay of the generated parcels, and an 80 % window that holds
 * 80 ± 5 % of the deliveries for every carrier (the ground-truth comparison of `likely` with
 * the lanes' true medians is src/predictions/backtest/backtest.spec.ts, on the same parcels).
 */
describe('seeded history and the backtest command', () => {
  let db: DataSource;
  const printed: string[] = [];
  const context = {
    dataSource: async () => db,
    print: (line: string) => printed.push(line),
  } as unknown as CliContext;

  beforeAll(async () => {
    db = await createDataSource(process.env.DATABASE_URL!).initialize();
  });
  afterAll(() => db.destroy());

  it('seeds --history N, then backtests it per carrier through the stores', async () => {
    const started = Date.now();
    await seedCommand.run(
      ['--shipments', '0', '--orders', '0', '--history', '6000', '--history-seed', '7'],
      context,
    );
    const seeded = JSON.parse(printed.pop()!);
    expect(seeded.history).toBe(6000);
    const workspaceId: string = seeded.workspace_id;
    const [{ n }] = await db.query(
      `SELECT count(*)::int AS n FROM shipment WHERE workspace_id = $1`,
      [workspaceId],
    );
    expect(n).toBe(6000);

    const tools = predictionTools(db);
    const teamId = (await tools.teamOf(workspaceId))!;
    const report = await tools.report(teamId, workspaceId, null);
    // What the seeder generated, replayed in memory: the stores lose nothing on the way.
    const generated = generateHistory({
      seed: 7,
      shipments: 6000,
      from: new Date(started - 180 * 86_400_000),
      to: new Date(started),
      now: new Date(started),
      lanes: DEMO_LANES,
    });
    expect(report.overall.parcels).toBeGreaterThan(4000);
    expect(report.byCarrier.map((c) => c.carrier).sort()).toEqual(['dhl', 'ups', 'usps']);
    // The in-memory replay: the same parcels per carrier (the two `now`s differ by the
    // milliseconds between them, which may leave a parcel at the edge a checkpoint short).
    const memory = runBacktest(generated);
    for (const c of memory.byCarrier) {
      const read = report.byCarrier.find((r) => r.carrier === c.carrier)!;
      expect(Math.abs(read.parcels - c.parcels)).toBeLessThanOrEqual(3);
      expect(Math.abs(read.coverage! - c.coverage!)).toBeLessThan(0.01);
    }
    for (const c of report.byCarrier) {
      expect([c.carrier, c.coverage! >= 0.75 && c.coverage! <= 0.85]).toEqual([c.carrier, true]);
      expect(c.maeDays).toBeGreaterThan(0);
    }
    expect(report.byBasis.history.coverage).toBeGreaterThanOrEqual(0.75);
    expect(report.byBasis.history.coverage).toBeLessThanOrEqual(0.85);

    await backtestPredictionsCommand.run(
      ['--workspace', workspaceId, '--since', '2020-01-01'],
      context,
    );
    const table = printed.pop()!.split('\n');
    // Rebuilding what the seeder already rebuilt changes nothing.
    await rebuildPredictionsCommand.run(['--workspace', workspaceId], context);
    expect(JSON.parse(printed.pop()!)).toEqual({ team_id: teamId, contributions_changed: 0 });
    expect(table[0]).toMatch(/^carrier\s+parcels\s+predictions\s+coverage/);
    expect(table.map((l) => l.split(/\s+/)[0])).toEqual(
      expect.arrayContaining(['dhl', 'ups', 'usps', 'all']),
    );
  });

  it('refuses bad arguments before touching the database', async () => {
    await expect(backtestPredictionsCommand.run([], context)).rejects.toThrow(/--workspace/);
    await expect(
      backtestPredictionsCommand.run(
        ['--workspace', '00000000-0000-4000-8000-000000000000', '--since', 'yesterday'],
        context,
      ),
    ).rejects.toThrow(/--since must be a date/);
    await expect(
      backtestPredictionsCommand.run(
        ['--workspace', '00000000-0000-4000-8000-000000000000'],
        context,
      ),
    ).rejects.toThrow(/No workspace/);
  });
});
