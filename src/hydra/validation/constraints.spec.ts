import { Choice, choicesOf } from './constraints';

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
