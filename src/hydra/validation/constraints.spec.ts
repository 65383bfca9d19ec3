import { validate } from 'class-validator';
import { ViolationCodes } from '../../common/errors/api-errors';
import { Assert, Choice, OfType, choicesOf } from './constraints';

class Example {
  @Choice(['a', 'b'])
  kind: string;

  plain: string;
}

describe('choicesOf', () => {
  it('reads the values a @Choice property allows', () => {
    expect(choicesOf(Example, 'kind')).toEqual(['a', 'b']);
    expect(choicesOf(Example, 'plain')).toBeUndefined();
  });
});

class Typed422 {
  @OfType('string')
  @Assert('given', (v) => v !== undefined, 'Give it.', { code: ViolationCodes.notBlank })
  id: unknown;
}

describe('OfType and code overrides', () => {
  const check = async (id: unknown) => {
    const object = Object.assign(new Typed422(), { id });
    return (await validate(object)).flatMap((e) =>
      Object.keys(e.constraints ?? {}).map((name) => ({
        name,
        message: e.constraints![name],
        code: (e.contexts?.[name] as { code?: string } | undefined)?.code,
      })),
    );
  };

  it('answers Symfony Type violations for other JSON types, nothing for strings and null', async () => {
    expect(await check('x')).toEqual([]);
    expect(await check(null)).toEqual([]);
    expect(await check(42)).toEqual([
      {
        name: 'ofType',
        message: 'This value should be of type string.',
        code: ViolationCodes.invalid,
      },
    ]);
  });

  it('reports an Assert with the code it is given', async () => {
    expect(await check(undefined)).toEqual([
      { name: 'given', message: 'Give it.', code: ViolationCodes.notBlank },
    ]);
  });
});
