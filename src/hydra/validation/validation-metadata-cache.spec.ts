import {
  getMetadataStorage,
  IsInt,
  IsString,
  MaxLength,
  MetadataStorage,
  validate,
} from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString({ groups: ['post'] })
  name!: unknown;
}

class Child extends Base {
  @IsInt({ groups: ['post', 'put'] })
  qty!: unknown;
}

describe('cacheValidationMetadata', () => {
  const storage = getMetadataStorage();
  cacheValidationMetadata(storage);

  /** The same storage's answer without the cache. */
  const uncached = (groups?: string[]) =>
    MetadataStorage.prototype.getTargetValidationMetadatas.call(
      storage,
      Child,
      '',
      false,
      false,
      groups,
    );

  it('answers what class-validator answers, for each group, inherited ones included', () => {
    for (const groups of [['post'], ['put'], undefined]) {
      const cached = storage.getTargetValidationMetadatas(Child, '', false, false, groups);
      expect(cached).toEqual(uncached(groups));
      expect(storage.getTargetValidationMetadatas(Child, '', false, false, groups)).toBe(cached);
    }
    expect(
      storage
        .getTargetValidationMetadatas(Child, '', false, false, ['put'])
        .map((m) => m.propertyName),
    ).toEqual(['qty']);
  });

  it('hands out frozen lists, grouped once', () => {
    const list = storage.getTargetValidationMetadatas(Child, '', false, false, ['post']);
    expect(Object.isFrozen(list)).toBe(true);
    expect(storage.groupByPropertyName(list)).toBe(storage.groupByPropertyName(list));
    expect(Object.keys(storage.groupByPropertyName(list)).sort()).toEqual(['name', 'qty']);
  });

  it('validates as before', async () => {
    const child = Object.assign(new Child(), { name: 3, qty: 'x' });
    const errors = await validate(child, { groups: ['post'] });
    expect(errors.map((e) => e.property).sort()).toEqual(['name', 'qty']);
    expect((await validate(child, { groups: ['put'] })).map((e) => e.property)).toEqual(['qty']);
  });

  it('looks again once a class gains a constraint', () => {
    const before = storage.getTargetValidationMetadatas(Child, '', false, false, ['post']);
    MaxLength(2, { groups: ['post'] })(Child.prototype, 'name');
    const after = storage.getTargetValidationMetadatas(Child, '', false, false, ['post']);
    expect(after).not.toBe(before);
    expect(after).toEqual(uncached(['post']));
    expect(after.map((m) => m.name)).toContain('maxLength');
  });

  it('installs once', () => {
    const lookup = storage.getTargetValidationMetadatas;
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(lookup);
  });
});
