import { Injectable } from '@nestjs/common';
import type { ResourceHooks } from '../hydra/write/resource-hooks';
import { Widget } from './widget.entity';

/** Widget rules: a trimmed title, each option once. */
@Injectable()
export class WidgetsService implements ResourceHooks<Widget> {
  prepare(widget: Widget): void {
    if (typeof widget.title === 'string') widget.title = widget.title.trim();
    if (Array.isArray(widget.options)) widget.options = [...new Set(widget.options)];
  }
}
