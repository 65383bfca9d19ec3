import {
  DEMO_LANES,
  generateHistory,
  historyRows,
} from '../../predictions/history/history-generator';
import { predictionTools } from '../../predictions/prediction-tools';
import { loadHistory, seedWorkspace } from '../../seed/bulk-seeder';
import { WorkspaceStore } from '../../workspaces/workspace-store';
import { CliCommand, CliUsageError, idOption, parseOptions } from '../cli-command';

const positive = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new CliUsageError(`--${name} must be a whole number, got "${raw}"`);
  return Number(raw);
};

export const seedCommand: CliCommand = {
  name: 'seed',
  description:
    'Fill a workspace with realistic orders, items and shipments in bulk (for benchmarks and demos)',
  usage:
    '[--shipments N] [--orders N] [--workspace <uuid>] [--batch N] [--indexes auto|rebuild|keep] [--history N] [--history-seed N]',
  async run(args, context) {
    const values = parseOptions(args, {
      shipments: { type: 'string' },
      orders: { type: 'string' },
      workspace: { type: 'string' },
      batch: { type: 'string' },
      indexes: { type: 'string' },
      history: { type: 'string' },
      'history-seed': { type: 'string' },
    });
    const history = positive('history', values.history, 0);
    const historySeed = positive('history-seed', values['history-seed'], 7);
    const shipments = positive('shipments', values.shipments, 1000);
    const orders = positive('orders', values.orders, Math.min(shipments, 1000));
    const batch = Math.max(1, positive('batch', values.batch, 50000));
    if (values.workspace) idOption(values.workspace, '--workspace must be a workspace id');
    const indexes = values.indexes ?? 'auto';
    if (!['auto', 'rebuild', 'keep'].includes(indexes))
      throw new CliUsageError(`--indexes must be auto, rebuild or keep, got "${indexes}"`);
    const db = await context.dataSource();
    if (values.workspace) {
      if (!(await new WorkspaceStore().exists(db, values.workspace)))
        throw new CliUsageError(`No workspace ${values.workspace}`);
    }
    const started = Date.now();
    const result = await seedWorkspace(db, {
      shipments,
      orders,
      batch,
      workspaceId: values.workspace,
      rebuildIndexes: indexes === 'auto' ? undefined : indexes === 'rebuild',
      onProgress: ({ table, rows, total }) =>
        process.stderr.write(
          `seed: ${table === 'index' ? 'indexes rebuilt' : table} ${rows}/${total}` +
            ` (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
        ),
    });
    // A delivery history drawn from known per-lane distributions (DEMO_LANES, the last 180
    // days), then the prediction aggregates rebuilt from it: `backtest-predictions` on it.
    if (history > 0) {
      const now = Date.now();
      const parcels = generateHistory({
        seed: historySeed,
        shipments: history,
        from: new Date(now - 180 * 86_400_000),
        to: new Date(now),
        now: new Date(now),
        lanes: DEMO_LANES,
      });
      await loadHistory(db, historyRows(parcels, result.workspaceId));
      const tools = predictionTools(db);
      await tools.rebuild((await tools.teamOf(result.workspaceId))!);
      process.stderr.write(`seed: history ${history} parcels, aggregates rebuilt\n`);
    }
    context.print(
      JSON.stringify({
        workspace_id: result.workspaceId,
        user_id: result.userId,
        access_token: result.token,
        shipments: result.shipments,
        history,
        orders: result.orders,
        seconds: result.seconds,
      }),
    );
  },
};
