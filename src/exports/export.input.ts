import { Allow } from 'class-validator';
import { Typed } from '../hydra/validation/input-types';
import { WorkspaceScopedInput } from '../workspaces/workspace-scoped.input';

/**
 * `POST /export`: what to export (read further by `exportRequest`: the entity and format
 * choices, and the collection's query parameters from `filters` or `params`).
 */
export class ExportInput extends WorkspaceScopedInput {
  /** `shipments` or `orders`. */
  @Typed('string') entity?: string | null;
  /** `csv` (the default). */
  @Typed('string') format?: string | null;
  /**
   * The collection's query parameters: an object (`{"trackingStatus": ["delivered"],
   * "createdAt": {"after": "2024-01-01"}}`) or a query string.
   */
  @Allow() filters?: Record<string, unknown> | string | null;
  /** The reference's form: `name=value` strings. */
  @Typed('string', { each: true }) params?: string[] | null;
}
