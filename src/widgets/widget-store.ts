import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryOne } from '../database/query';
import type { WidgetOption, WidgetType } from './widget.entity';

/** An enabled widget as its public side reads it. */
export interface EnabledWidgetRow {
  id: string;
  title: string;
  type: WidgetType;
  options: WidgetOption[];
  workspace_id: string;
}

/** The SQL of widgets and their logs for the public lookups. */
@Injectable()
export class WidgetStore {
  constructor(private readonly db: DataSource) {}

  /** The widget, when it is enabled. */
  async enabled(id: string): Promise<EnabledWidgetRow | undefined> {
    return queryOne<EnabledWidgetRow>(
      this.db,
      `SELECT id, title, type, options, workspace_id FROM widget WHERE id = $1 AND enabled`,
      [id],
    );
  }

  /** One line of the widget's log. */
  async log(widgetId: string, workspaceId: string, info: string): Promise<void> {
    await execute(
      this.db,
      `INSERT INTO widget_log (widget_id, workspace_id, info) VALUES ($1, $2, $3)`,
      [widgetId, workspaceId, info],
    );
  }
}
