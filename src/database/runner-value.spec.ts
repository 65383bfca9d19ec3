import { RunnerValue } from './runner-value';

describe('RunnerValue', () => {
  const dirty = new RunnerValue<Set<string>>('dirty');
  const other = new RunnerValue<string>('other');
  const runner = { query: () => Promise.resolve([]), name: 'tx' };

  it('carries the value on a runner derived from the one given, which stays as it was', () => {
    const set = new Set(['a']);
    const carrying = dirty.on(runner, set);
    expect(dirty.of(carrying)).toBe(set);
    expect(dirty.of(runner)).toBeUndefined();
    // The same runner underneath: its members are the original's.
    expect(carrying.name).toBe('tx');
    expect(carrying.query).toBe(runner.query);
  });

  it('is found on runners derived further, the nearest value first', () => {
    const outer = dirty.on(runner, new Set(['outer']));
    const nested = other.on(outer, 'x');
    expect(dirty.of(nested)).toEqual(new Set(['outer']));
    expect(other.of(nested)).toBe('x');
    const inner = dirty.on(nested, new Set(['inner']));
    expect(dirty.of(inner)).toEqual(new Set(['inner']));
    expect(dirty.of(outer)).toEqual(new Set(['outer']));
  });

  it('keeps two values of the same description apart', () => {
    const twin = new RunnerValue<Set<string>>('dirty');
    expect(twin.of(dirty.on(runner, new Set()))).toBeUndefined();
  });
});
