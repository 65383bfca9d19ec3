import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { countryCatalogue, stateCatalogue, timeZoneCatalogue } from './geography-catalogue';
import { GeographyStore } from './geography-store';

/**
 * Makes the `country`, `state` and `timezone` tables mirror the code catalogues at start-up:
 * changed rows are upserted, unchanged ones left alone, vanished ones removed. Idempotent and
 * safe when several nodes start at once. Time zones the database does not know are left out,
 * so the offset computed on read never fails.
 */
@Injectable()
export class GeographyCatalogueSync implements OnModuleInit {
  private readonly logger = new Logger(GeographyCatalogueSync.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: GeographyStore,
  ) {}

  async onModuleInit(): Promise<void> {
    const changed = await this.sync();
    if (changed > 0) this.logger.log(`geography catalogue: ${changed} row(s) written`);
  }

  /** Returns how many rows were inserted, updated or deleted. */
  async sync(): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      await this.store.lockSync(em);
      let changed = 0;
      changed += await this.store.mirror(
        em,
        'country',
        countryCatalogue().map((c) => ({ ...c })),
      );
      changed += await this.store.mirror(
        em,
        'state',
        stateCatalogue().map((s) => ({ code: s.code, name: s.name, country_code: s.countryCode })),
      );
      changed += await this.store.mirror(
        em,
        'timezone',
        timeZoneCatalogue(await this.store.databaseZones(em)).map((z) => ({ ...z })),
      );
      return changed;
    });
  }
}
