import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { Shipment } from './shipment.entity';
import { execute, query } from '../database/query';
import { workspaceTeamSql } from '../workspaces/workspace-team-sql';

/** What a create needs to know before the shipment's row exists (ShipmentStore.creation). */
export interface ShipmentCreation {
  /**
   * The transaction's time: `now()` is fixed for a transaction, so this is the `created_at`
   * the row gets, known before the insert (the tracking of a new shipment is computed from it).
   */
  now: Date;
  /** The team of the shipment's workspace. */
  teamId: string;
  /** Whether the workspace has a shipment with this tracking number already. */
  taken: boolean;
  /** The whole row, with the columns other modules asked for (CreationCheck extensions). */
  row: Record<string, unknown>;
}

/**
 * An INSERT of rows that refer to a new shipment, taking one parameter: `sql` is given the
 * placeholder to use (`$1` on its own, another number inside the shipment's INSERT).
 */
export interface DependentInsert {
  sql: (placeholder: string) => string;
  param: unknown;
}

/** The name of the new row in the statement that inserts it (ShipmentStore.insert). */
export const NEW_SHIPMENT = 'new_shipment';

/**
 * What the INSERT of a new shipment also answers: a select list over the new row as `t`, and
 * the FROM clause over `"new_shipment" t` (with its joins). It takes no parameters.
 */
export interface NewShipmentRead {
  select: string;
  from: string;
}

/** The columns of a stored shipment a PUT compares the new one with. */
export interface StoredShipment {
  workspace_id: string;
  tracking_number: string | null;
  origin_carrier: string | null;
  order_numbers: string[];
}

/**
 * The shipment table's SQL for the writes of the shipments module. Statements go as prepared
 * statements on the write's transaction (query).
 */
@Injectable()
export class ShipmentStore {
  private insertable?: ColumnMetadata[];

  /**
   * One statement before a create: the transaction's time, the team, the number's use, and
   * `columns` over the workspace row `w` that other modules read there.
   */
  async creation(
    em: EntityManager,
    workspaceId: string,
    trackingNumber: string | null,
    columns: readonly string[] = [],
  ): Promise<ShipmentCreation | null> {
    const [row] = await query<{ now: Date; team_id: string; taken: boolean }>(
      em,
      `SELECT now() AS now, w.team_id,
              $2::text IS NOT NULL AND EXISTS (SELECT 1 FROM shipment s
                WHERE s.workspace_id = w.id AND s.tracking_number = $2::text) AS taken
              ${columns.map((c) => `, ${c}`).join('')}
         FROM ${workspaceTeamSql.tableAs('w')} WHERE w.id = $1`,
      [workspaceId, trackingNumber],
    );
    return row ? { now: row.now, teamId: row.team_id, taken: row.taken, row } : null;
  }

  /** Whether another shipment of the workspace has this tracking number. */
  async numberTaken(
    em: EntityManager,
    workspaceId: string,
    trackingNumber: string,
    exceptId: string | null,
  ): Promise<boolean> {
    const rows = await query(
      em,
      'SELECT 1 FROM shipment WHERE workspace_id = $1 AND tracking_number = $2 AND id IS DISTINCT FROM $3::uuid LIMIT 1',
      [workspaceId, trackingNumber, exceptId],
    );
    return rows.length > 0;
  }

  /** What a PUT compares the shipment with. */
  async stored(em: EntityManager, id: string): Promise<StoredShipment> {
    const [row] = await query<StoredShipment>(
      em,
      'SELECT workspace_id, tracking_number, origin_carrier, order_numbers FROM shipment WHERE id = $1',
      [id],
    );
    return row;
  }

  /** Deletes the shipment (its items, checkpoints and links go with it: FK cascades). */
  async remove(em: EntityManager, id: string): Promise<void> {
    await execute(em, 'DELETE FROM shipment WHERE id = $1', [id]);
  }

  async workspaceOf(em: EntityManager, id: string): Promise<string> {
    const [row] = await query<{ workspace_id: string }>(
      em,
      'SELECT workspace_id FROM shipment WHERE id = $1',
      [id],
    );
    return row.workspace_id;
  }

  /**
   * Inserts a new shipment in one statement: the entity's columns (as TypeORM's insert would
   * write them: a property left undefined takes the column's default) and `columns`, columns
   * the entity does not carry or that override it (the tracking fields, by column name). The
   * same statement inserts the rows that refer to it (`dependents`; their foreign key is
   * checked at the statement's end, when the row exists) and answers `read` over the new row
   * (`"new_shipment" t`). The generated values (defaults) are set on the entity, as `save`
   * does; the answer has them by column name, beside what `read` selects.
   */
  async insert(
    em: EntityManager,
    shipment: Shipment,
    columns: Readonly<Record<string, unknown>>,
    dependents: readonly (DependentInsert | null | undefined)[] = [],
    read: NewShipmentRead | null = null,
  ): Promise<Record<string, unknown>> {
    const names: string[] = [];
    const values: string[] = [];
    const params: unknown[] = [];
    const generated: ColumnMetadata[] = [];
    const driver = em.connection.driver;
    for (const column of this.columnsOf(em)) {
      if (Object.prototype.hasOwnProperty.call(columns, column.databaseName)) continue;
      const value = column.getEntityValue(shipment);
      names.push(`"${column.databaseName}"`);
      if (value === undefined) {
        values.push('DEFAULT');
        // What TypeORM reads back after an insert: generated and default values.
        if (
          !column.relationMetadata &&
          (column.isGenerated ||
            column.isCreateDate ||
            column.isUpdateDate ||
            column.default !== undefined)
        )
          generated.push(column);
      } else {
        params.push(driver.preparePersistentValue(value, column));
        values.push(`$${params.length}`);
      }
    }
    for (const [name, value] of Object.entries(columns)) {
      names.push(`"${name}"`);
      params.push(value);
      values.push(`$${params.length}`);
    }
    // Each dependent a CTE of its own, taking its one parameter.
    const ctes: string[] = [];
    for (const dependent of dependents) {
      if (!dependent) continue;
      params.push(dependent.param);
      ctes.push(`, "new_dependent_${ctes.length}" AS (${dependent.sql(`$${params.length}`)})`);
    }
    const selected = [
      ...(read ? [read.select] : []),
      ...generated.map((c) => `t."${c.databaseName}" AS "${c.databaseName}"`),
    ];
    const [row] = await query<Record<string, unknown>>(
      em,
      `WITH "${NEW_SHIPMENT}" AS (INSERT INTO shipment (${names.join(', ')})
         VALUES (${values.join(', ')}) RETURNING *)
       ${ctes.join('\n')}
       SELECT ${selected.join(', ') || '1'} ${read?.from ?? `FROM "${NEW_SHIPMENT}" t`}`,
      params,
    );
    for (const column of generated) {
      column.setEntityValue(
        shipment,
        driver.prepareHydratedValue(row[column.databaseName], column),
      );
    }
    return row;
  }

  /** The columns an insert writes (TypeORM's own list: embedded and relation columns too). */
  private columnsOf(em: EntityManager): ColumnMetadata[] {
    this.insertable ??= em.connection
      .getMetadata(Shipment)
      .columns.filter((c) => c.isInsert && !c.isVirtualProperty && !c.isVersion);
    return this.insertable;
  }
}
