import { Column, DataSource, Entity, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { ApiProperty, ApiResource } from '../metadata/decorators';
import { buildResourceMeta } from '../metadata/resource-metadata';
import { ResourceMeta } from '../core/resource-meta';
import { resetOmittedOnPut } from './put-replace';

class Settings {
  @Column('text', { nullable: true })
  colour: string | null;

  @Column('integer', { default: 3 })
  size: number;
}

@ApiResource({ path: '/put_owners', tenancy: 'public', replaceOnPut: true })
@Entity('put_owner')
class Owner {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @OneToMany(() => Thing, (t) => t.owner)
  @ApiProperty({ writable: ['post', 'put'] })
  things: Thing[];
}

@ApiResource({ path: '/put_things', tenancy: 'public', replaceOnPut: true })
@Entity('put_thing')
class Thing {
  @ApiProperty()
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('text', { nullable: true })
  title: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('text')
  kind: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('boolean', { default: true })
  enabled: boolean;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('integer', { default: 0 })
  count: number;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('numeric', { default: 0 })
  price: string;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('text', { default: 'USD' })
  currency: string;

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('text', { array: true, default: () => "'{}'" })
  emails: string[];

  @ApiProperty({ writable: ['post', 'put'], type: 'array', items: 'string' })
  @Column('text', { array: true, default: '{a,"b c"}' })
  labels: string[];

  @ApiProperty({ writable: ['post', 'put'], type: 'object' })
  @Column('jsonb', { default: () => '\'{"on": true}\'::jsonb' })
  options: Record<string, unknown>;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column(() => Settings)
  settings: Settings;

  @ApiProperty({ writable: ['post', 'put'], nullable: true })
  @ManyToOne(() => Owner, { nullable: true })
  owner: Owner | null;

  @ApiProperty({ writable: ['post'] })
  @Column('text', { nullable: true })
  createdOnly: string | null;

  @ApiProperty()
  @Column('text', { nullable: true })
  computedByServer: string | null;

  @ApiProperty({ writable: ['post', 'put'] })
  @Column('text', { default: () => 'gen_random_uuid()::text' })
  token: string;
}

describe('resetOmittedOnPut', () => {
  let things: ResourceMeta;
  let owners: ResourceMeta;

  beforeAll(async () => {
    // Metadata only: the data source never connects.
    const dataSource = new DataSource({ type: 'postgres', entities: [Thing, Owner] });
    await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    things = buildResourceMeta(Thing, dataSource);
    owners = buildResourceMeta(Owner, dataSource);
  });

  const stored = (): Record<string, any> => ({
    id: 'x',
    title: 'Old',
    kind: 'a',
    enabled: false,
    count: 9,
    price: '9.5',
    currency: 'EUR',
    emails: ['a@example.com'],
    labels: ['z'],
    options: { on: false, extra: 1 },
    settings: { colour: 'red', size: 7 },
    owner: { id: 'o' },
    createdOnly: 'kept',
    computedByServer: 'kept too',
    token: 'stored-token',
  });

  it('puts every PUT-writable attribute the body leaves out back to its POST default', () => {
    const entity = stored();
    resetOmittedOnPut(things, entity, { title: 'New' });
    expect(entity).toEqual({
      id: 'x',
      title: 'Old', // given: the denormalizer applies it afterwards
      kind: null, // no default: NotBlank reports it, as on POST
      enabled: true,
      count: 0,
      price: '0',
      currency: 'USD',
      emails: [],
      labels: ['a', 'b c'],
      options: { on: true },
      settings: { colour: null, size: 3 },
      owner: null,
      createdOnly: 'kept',
      computedByServer: 'kept too',
      token: 'stored-token', // an SQL expression the layer cannot evaluate
    });
    expect(entity.settings).toBeInstanceOf(Settings);
  });

  it('starts an embedded object the body gives from its defaults, so it is replaced, not merged', () => {
    const entity = stored();
    resetOmittedOnPut(things, entity, { settings: { colour: 'blue' } });
    expect(entity.settings).toEqual({ colour: null, size: 3 });
    expect(entity.settings).not.toBe(stored().settings);
  });

  it('leaves the attributes the body gives to the denormalizer', () => {
    const entity = stored();
    const body = Object.fromEntries(
      things.properties.filter((p) => p.writable.has('put')).map((p) => [p.name, null]),
    );
    delete body.settings;
    resetOmittedOnPut(things, entity, body);
    expect(entity).toEqual({ ...stored(), settings: { colour: null, size: 3 } });
  });

  it('hands out fresh default arrays and objects on every call', () => {
    const first = stored();
    resetOmittedOnPut(things, first, {});
    first.emails.push('changed');
    first.options.on = false;
    first.settings.size = 4;
    const second = stored();
    resetOmittedOnPut(things, second, {});
    expect(second).toMatchObject({ emails: [], options: { on: true }, settings: { size: 3 } });
  });

  it('empties to-many references left out', () => {
    const entity: Record<string, any> = { id: 'o', things: [{ id: 't' }] };
    resetOmittedOnPut(owners, entity, {});
    expect(entity.things).toEqual([]);
  });

  it('does nothing with a body that is not an object (the denormalizer answers 400)', () => {
    for (const body of [null, 'x', 5, ['title']]) {
      const entity = stored();
      resetOmittedOnPut(things, entity, body);
      expect(entity).toEqual(stored());
    }
  });
});
