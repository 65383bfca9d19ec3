import type { EntityManager } from 'typeorm';
import { DropshipperSettings, normalizeDropshipperSettings } from './dropshipper-settings';

/**
 * What the workspace's default tracking page hides from end customers (its dropshipper
 * settings; none without a default page), for other public views of the workspace's
 * shipments (widgets) to hide the same through `publicTrackingView`.
 */
export async function defaultPageHiding(
  em: Pick<EntityManager, 'query'>,
  workspaceId: string,
): Promise<DropshipperSettings> {
  const [row] = await em.query(
    `SELECT p.dropshipper_settings FROM workspace w
       JOIN tracking_page p ON p.id = w.default_tracking_page_id
      WHERE w.id = $1`,
    [workspaceId],
  );
  return normalizeDropshipperSettings(row?.dropshipper_settings ?? {}).value;
}
