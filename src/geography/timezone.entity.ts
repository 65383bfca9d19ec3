import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';

/**
 * The offset from UTC right now, `+05:30` / `-03:00`, computed by PostgreSQL when read so it
 * follows daylight saving time (the catalogue only holds zones PostgreSQL knows).
 */
const CURRENT_UTC_OFFSET = `(SELECT CASE WHEN o.s < 0 THEN '-' ELSE '+' END
  || lpad((abs(o.s) / 3600)::text, 2, '0') || ':' || lpad((abs(o.s) % 3600 / 60)::text, 2, '0')
  FROM (SELECT extract(epoch FROM (now() AT TIME ZONE {a}.code) - (now() AT TIME ZONE 'UTC'))::int AS s) o)`;

/**
 * An IANA time zone (`Europe/Berlin`). The code holds slashes, so its IRI carries it
 * percent-encoded: `/timezones/Europe%2FBerlin`. Shared catalogue, synchronised at start-up.
 */
@ApiResource({
  shortName: 'Timezone',
  path: '/timezones',
  operations: ['list', 'get'],
  tenancy: 'public',
  requireToken: true,
  identifier: 'code',
  defaultOrder: { code: 'ASC' },
  description: 'An IANA time zone with its current offset from UTC.',
})
@ApiFilter(
  new ExactFilter(['code', ['name', { array: false }], 'utcOffset']),
  new OrderFilter(['code', 'name']),
)
@Entity('timezone')
export class Timezone {
  @ApiProperty({ description: 'IANA time zone name. Used as identifier', example: 'Europe/Berlin' })
  @PrimaryColumn('text')
  code: string;

  @ApiProperty({ description: 'Readable name', example: 'America/New York' })
  @Column('text')
  name: string;

  @ApiProperty({
    sql: CURRENT_UTC_OFFSET,
    type: 'string',
    nullable: false,
    description: 'Current offset from UTC (daylight saving time included)',
    example: '+01:00',
  })
  utcOffset?: string;
}
