import {
  Column,
  CreateDateColumn,
  Entity,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { DateFilter, ExactFilter, OrderFilter, RangeFilter } from '../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../hydra/metadata/decorators';
import { Shipment } from '../shipments/shipment.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { TrackingPage } from './tracking-page.entity';

/**
 * A customer's review of a shipment, left on its public tracking page
 * (`POST /public/tracking_page_links/{hash}/reviews`). Read-only through the API; the spec
 * names `GET /reviews/{id}`, the list is offered too.
 */
@ApiResource({
  path: '/reviews',
  shortName: 'Review',
  operations: ['list', 'get'],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { createdAt: 'DESC' },
  description: 'A customer review of a shipment.',
})
@ApiFilter(
  new ExactFilter(['shipment', 'trackingPage']),
  new RangeFilter(['totalScore']),
  new DateFilter(['createdAt']),
  new OrderFilter(['createdAt', 'totalScore']),
)
@Entity('review')
export class Review {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty()
  @ManyToOne(() => Workspace, { nullable: false, onDelete: 'CASCADE' })
  workspace: Workspace;

  @ApiProperty()
  @ManyToOne(() => Shipment, { nullable: true, onDelete: 'SET NULL' })
  shipment: Shipment | null;

  @ApiProperty()
  @ManyToOne(() => TrackingPage, { nullable: true, onDelete: 'SET NULL' })
  trackingPage: TrackingPage | null;

  @ApiProperty()
  @Column('smallint', { nullable: true })
  carrierScore: number | null;

  @ApiProperty()
  @Column('smallint', { nullable: true })
  productScore: number | null;

  @ApiProperty()
  @Column('smallint', { nullable: true })
  packagingScore: number | null;

  @ApiProperty({ type: 'number' })
  @Column('double precision')
  totalScore: number;

  @ApiProperty()
  @Column('text', { nullable: true })
  comment: string | null;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty()
  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
