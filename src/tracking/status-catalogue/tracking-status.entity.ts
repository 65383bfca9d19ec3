import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ApiProperty, ApiResource } from '../../hydra/metadata/decorators';

/**
 * The twelve tracking status codes (src/tracking/statuses), served read-only and without a
 * token at /public/tracking_statuses, in catalogue order. Synchronised at start-up.
 */
@ApiResource({
  shortName: 'TrackingStatus',
  path: '/public/tracking_statuses',
  operations: ['list', 'get'],
  tenancy: 'public',
  identifier: 'code',
  defaultOrder: { position: 'ASC' },
  description: 'A tracking status a shipment can be in.',
})
@Entity('tracking_status')
export class TrackingStatusEntity {
  @ApiProperty({ example: 'in_transit' })
  @PrimaryColumn('text')
  code: string;

  @ApiProperty({ example: 'In transit' })
  @Column('text')
  title: string;

  @ApiProperty()
  @Column('text', { nullable: true })
  description: string | null;

  /** pre_shipment, active or final: drives the counters and the refresh schedule. */
  @Column('text')
  phase: string;

  /** Catalogue order, the default order of the collection. */
  @Column('int')
  position: number;
}
