import { Column, CreateDateColumn, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ExactFilter, OrderFilter } from '../../hydra/filters';
import { ApiFilter, ApiProperty, ApiResource } from '../../hydra/metadata/decorators';
import { Shipment } from '../../shipments/shipment.entity';
import { Workspace } from '../../workspaces/workspace.entity';

/**
 * One tracking event of a shipment, as a carrier reported it (fields of the reference
 * TrackingCheckpoint resource, plus the status, country and carrier the engine uses). Written
 * only by the tracking engine (provider results, pushed checkpoints); read-only over HTTP.
 */
@ApiResource({
  path: '/tracking_checkpoints',
  operations: ['list', 'get'],
  nested: [
    { path: '/shipments/:id/checkpoints', params: { id: 'shipment' } },
    {
      path: '/workspaces/:id/shipments/:shipments/checkpoints',
      params: { id: 'workspace', shipments: 'shipment' },
    },
    {
      path: '/teams/:id/workspaces/:workspaces/shipments/:shipments/checkpoints',
      params: { id: 'workspace.team', workspaces: 'workspace', shipments: 'shipment' },
    },
  ],
  tenancy: { workspace: 'workspace' },
  defaultOrder: { checkpointDate: 'DESC' },
  description: 'A tracking event of a shipment reported by a carrier.',
})
// workspace.id: one workspace's checkpoints, as a console lists them (tenancy's own column).
@ApiFilter(new OrderFilter(['checkpointDate']), new ExactFilter(['workspace.id']))
@Entity('tracking_checkpoint')
export class TrackingCheckpoint {
  @ApiProperty({ description: 'The shipment the checkpoint belongs to' })
  @ManyToOne(() => Shipment, { onDelete: 'CASCADE', nullable: false })
  shipment: Shipment;

  @ManyToOne(() => Workspace, { onDelete: 'CASCADE', nullable: false })
  workspace: Workspace;

  /** The reporter's id of the checkpoint: unique per shipment, the key of idempotent upserts. */
  @Column('text')
  externalId: string;

  @ApiProperty({ description: 'Date and time of the checkpoint, provided by the carrier' })
  @Column('timestamptz')
  checkpointDate: Date;

  @ApiProperty({
    description: 'Tracking status code the checkpoint reports',
    example: 'in_transit',
  })
  @Column('text')
  status: string;

  @ApiProperty({ description: 'Checkpoint message provided by the carrier' })
  @Column('text', { nullable: true })
  info: string | null;

  @ApiProperty({ description: 'Location provided by the carrier' })
  @Column('text', { nullable: true })
  location: string | null;

  @ApiProperty({ description: 'Two-letter code of the country of the checkpoint' })
  @Column('text', { nullable: true })
  countryIso2: string | null;

  @ApiProperty({ description: 'Code of the carrier that reported the checkpoint' })
  @Column('text', { nullable: true })
  carrier: string | null;

  @ApiProperty({ description: 'Carrier affiliation: origin or destination' })
  @Column('text', { nullable: true })
  rel: string | null;

  @ApiProperty({
    description:
      "The tracking provider's own status of the checkpoint (e.g. 17TRACK " +
      '"InTransit/InTransit_PickedUp"); null for the sandbox and pushed checkpoints.',
  })
  @Column('text', { nullable: true })
  rawStatus: string | null;

  /** provider (fetched by the engine) or push (sent to POST /tracking/ingest). */
  @Column('text', { default: 'provider' })
  source: string;

  @ApiProperty()
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @ApiProperty({ description: 'A unique version 4 UUID' })
  @PrimaryGeneratedColumn('uuid')
  id: string;
}
