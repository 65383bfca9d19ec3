import { Injectable } from '@nestjs/common';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { removeNotesOfRecord } from '../notes/record-notes';
import { Widget } from './widget.entity';

/** Widget rules: a trimmed title, each option once. */
@Injectable()
export class WidgetsService implements ResourceHooks<Widget> {
  prepare(widget: Widget): void {
    if (typeof widget.title === 'string') widget.title = widget.title.trim();
    if (Array.isArray(widget.options)) widget.options = [...new Set(widget.options)];
  }

  /** DELETE: the notes on the widget and on its logs (deleted with it) go too. */
  async beforeRemove(widget: Widget, ctx: WriteContext): Promise<void> {
    await removeNotesOfRecord(ctx, widget.id);
  }
}
