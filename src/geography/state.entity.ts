import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ExactFilter, OrderFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';

/**
 * A first-level subdivision of a country (state, province, region), identified by its
 * ISO 3166-2 code (`US-CA`). Shared catalogue, synchronised at start-up; also listed per
 * country at /countries/{code}/states.
 */
@ApiResource({
  shortName: 'State',
  path: '/states',
  operations: ['list', 'get'],
  tenancy: 'public',
  requireToken: true,
  identifier: 'code',
  defaultOrder: { countryCode: 'ASC', name: 'ASC' },
  description: 'A state, province or region of a country (ISO 3166-2).',
})
@ApiFilter(
  new ExactFilter(['code', ['name', { array: false }], 'countryCode']),
  new OrderFilter(['code', 'name', 'countryCode']),
)
@Entity('state')
export class State {
  @ApiProperty({ description: 'ISO 3166-2 code. Used as identifier', example: 'US-CA' })
  @PrimaryColumn('text')
  code: string;

  @ApiProperty({ description: 'Name of the subdivision', example: 'California' })
  @Column('text')
  name: string;

  @ApiProperty({ description: 'ISO 3166-1 alpha-2 code of its country', example: 'US' })
  @Column('text')
  countryCode: string;
}
