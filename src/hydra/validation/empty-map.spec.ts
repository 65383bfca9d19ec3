import 'reflect-metadata';
import { Type } from 'class-transformer';
import { ValidateNested } from 'class-validator';
import { asObjectInput, emptyArraysAsObjects } from './empty-map';
import { Typed } from './input-types';

class Options {
  @Typed('object') settings?: unknown;
}

class Input {
  @Typed('object') filter?: unknown;
  @Typed('array') ids?: unknown;
  @Typed('object', { each: true }) rows?: unknown;
  @ValidateNested() @Type(() => Options) options?: Options;
}

describe('empty PHP maps', () => {
  it('reads [] as {} and leaves everything else', () => {
    expect(asObjectInput([])).toEqual({});
    expect(asObjectInput(['a'])).toEqual(['a']);
    expect(asObjectInput({ a: 1 })).toEqual({ a: 1 });
    expect(asObjectInput(null)).toBeNull();
  });

  it('turns [] into {} only where a DTO declares an object, nested DTOs included', () => {
    const options = Object.assign(new Options(), { settings: [] });
    const input = Object.assign(new Input(), { filter: [], ids: [], rows: [], options });
    emptyArraysAsObjects(input);
    expect(input.filter).toEqual({});
    expect(input.ids).toEqual([]);
    expect(input.rows).toEqual([]);
    expect(options.settings).toEqual({});
    const kept = Object.assign(new Input(), { filter: ['x'] });
    emptyArraysAsObjects(kept);
    expect(kept.filter).toEqual(['x']);
  });
});
