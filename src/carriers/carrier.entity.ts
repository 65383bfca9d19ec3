import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ApiProperty, ApiResource } from '../hydra/metadata/decorators';

/**
 * A carrier of the catalogue (src/tracking/carriers), served read-only and without a token at
 * /public/carriers. Rows are synchronised from the code catalogue at start-up
 * (CarrierCatalogueSync); the code is the identifier, as in `originCarrier`. The list shows
 * code and name (the reference's `Carrier-Getc`); `groups[]=getCarrier` shows members whole.
 */
@ApiResource({
  shortName: 'Carrier',
  path: '/public/carriers',
  operations: ['list', 'get'],
  tenancy: 'public',
  identifier: 'code',
  defaultOrder: { name: 'ASC' },
  description: 'A shipping company whose tracking numbers the service recognises.',
})
@Entity('carrier')
export class CarrierEntity {
  @ApiProperty({ description: 'The carrier code. Used as identifier', example: 'china-post' })
  @PrimaryColumn('text')
  code: string;

  @ApiProperty({ description: 'The carrier name', example: 'China Post' })
  @Column('text')
  name: string;

  @ApiProperty({ description: 'The carrier phone', itemOnly: true })
  @Column('text', { nullable: true })
  phone: string | null;

  @ApiProperty({ description: 'The carrier website url', itemOnly: true })
  @Column('text', { nullable: true })
  url: string | null;

  @ApiProperty({ description: 'The carrier logo url', itemOnly: true })
  @Column('text', { nullable: true })
  image: string | null;

  @ApiProperty({
    description: 'ISO2 codes of countries this carrier belongs to',
    items: 'string',
    itemOnly: true,
  })
  @Column('text', { array: true, default: '{}' })
  countryIso2Codes: string[];

  @ApiProperty({ description: 'The carrier description', itemOnly: true })
  @Column('text', { nullable: true })
  description: string | null;

  @ApiProperty({
    description: 'Public tracking page of the carrier; {trackingNumber} stands for the number',
    itemOnly: true,
  })
  @Column('text', { nullable: true })
  trackingUrlTemplate: string | null;
}
