import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { query } from '../database/query';

/** A carrier as the tracking page names and links it. */
export interface PageCarrierRow {
  code: string;
  name: string | null;
  tracking_url_template: string | null;
}

/** The carrier table's SQL for the public tracking page. */
@Injectable()
export class CarrierPageStore {
  constructor(private readonly db: DataSource) {}

  async byCodes(codes: readonly string[]): Promise<PageCarrierRow[]> {
    if (codes.length === 0) return [];
    return query<PageCarrierRow>(
      this.db,
      `SELECT code, name, tracking_url_template FROM carrier WHERE code = ANY($1::text[])`,
      [codes],
    );
  }
}
