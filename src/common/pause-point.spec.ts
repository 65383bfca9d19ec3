import { pausePoint } from './pause-point';

describe('pausePoint', () => {
  const saved = process.env.TEST_PAUSE_AT;
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_PAUSE_AT;
    else process.env.TEST_PAUSE_AT = saved;
    jest.restoreAllMocks();
  });

  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    return done;
  };

  it('passes through when no pause point is set, or another one', async () => {
    delete process.env.TEST_PAUSE_AT;
    expect(await settled(pausePoint('export.file.written'))).toBe(true);
    process.env.TEST_PAUSE_AT = 'import.row.committed';
    expect(await settled(pausePoint('export.file.written'))).toBe(true);
  });

  it('stops for good at a listed point and says so once on stderr', async () => {
    const written = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.env.TEST_PAUSE_AT = 'import.row.committed, batch.change.uncommitted';
    expect(await settled(pausePoint('batch.change.uncommitted'))).toBe(false);
    expect(await settled(pausePoint('batch.change.uncommitted'))).toBe(false);
    expect(written.mock.calls).toEqual([['PAUSED batch.change.uncommitted\n']]);
  });
});
