import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryOne, type SqlRunner } from '../database/query';
import { mediaFieldSql } from '../media/media-store';

/** What a public tracking page shows of its workspace. */
export interface WorkspaceBrandRow {
  title: string;
  /** Path of the workspace's uploaded logo, or null. */
  logo_path: string | null;
}

/** SQL of the id of the default tracking page of the workspace `workspaceSql` (or null). */
export function defaultTrackingPageIdSql(workspaceSql: string): string {
  return `(SELECT w.default_tracking_page_id FROM workspace w WHERE w.id = ${workspaceSql})`;
}

/** SQL that is true when the tracking page `pageIdSql` is some workspace's default page. */
export function isDefaultTrackingPageSql(pageIdSql: string): string {
  return `EXISTS (SELECT 1 FROM workspace w WHERE w.default_tracking_page_id = ${pageIdSql})`;
}

/** `SELECT id` of the workspaces of the team `teamSql`. */
export function teamWorkspaceIdsSql(teamSql: string): string {
  return `SELECT w.id FROM workspace w WHERE w.team_id = ${teamSql}`;
}

/** SQL of the team of the workspace `workspaceSql`. */
export function workspaceTeamIdSql(workspaceSql: string): string {
  return `(SELECT w.team_id FROM workspace w WHERE w.id = ${workspaceSql})`;
}

/** SQL of the title of the workspace `workspaceSql`. */
export function workspaceTitleSql(workspaceSql: string): string {
  return `(SELECT w.title FROM workspace w WHERE w.id = ${workspaceSql})`;
}

/** The workspace table's SQL for tracking pages (their brand, the default page). */
@Injectable()
export class WorkspacePageStore {
  constructor(private readonly db: DataSource) {}

  async brand(workspaceId: string): Promise<WorkspaceBrandRow | undefined> {
    return queryOne<WorkspaceBrandRow>(
      this.db,
      `SELECT w.title, ${mediaFieldSql('filePath', 'w.logo_id')} AS logo_path
         FROM workspace w WHERE w.id = $1`,
      [workspaceId],
    );
  }

  /** Makes the page the workspace's default one, unless it has one. */
  async defaultPageUnlessSet(
    runner: SqlRunner,
    workspaceId: string,
    pageId: string,
  ): Promise<void> {
    await execute(
      runner,
      `UPDATE workspace SET default_tracking_page_id = $1 WHERE id = $2 AND default_tracking_page_id IS NULL`,
      [pageId, workspaceId],
    );
  }
}
