import { Column, Entity, PrimaryColumn } from 'typeorm';
import { BooleanFilter, ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';

/**
 * An ISO 3166-1 country, identified by its two-letter code. A shared catalogue synchronised
 * at start-up (GeographyCatalogueSync): every caller sees the same rows, a token is required
 * as for the rest of the API (the reference declares no exception for it).
 */
@ApiResource({
  shortName: 'Country',
  path: '/countries',
  operations: ['list', 'get'],
  tenancy: 'public',
  requireToken: true,
  identifier: 'code',
  defaultOrder: { name: 'ASC' },
  description: 'A country (ISO 3166-1 alpha-2 code and English name).',
})
@ApiFilter(
  new ExactFilter(['code', ['name', { array: false }]]),
  new BooleanFilter(['preferred', 'stateful']),
  new OrderFilter(['code', 'name', 'preferred']),
)
@Entity('country')
export class Country {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 code. Used as identifier', example: 'US' })
  @PrimaryColumn('text')
  code: string;

  @ApiProperty({ description: 'Official English name', example: 'United States of America' })
  @Column('text')
  name: string;

  @ApiProperty({ description: 'Listed first in country pickers' })
  @Column('boolean', { default: false })
  preferred: boolean;

  @ApiProperty({ description: 'Addresses in this country carry a state (see its states)' })
  @Column('boolean', { default: false })
  stateful: boolean;
}
