import { mkdtemp, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { classifyPostmaster, parsePostmasterPid, readPostmasterPid } from './postmaster-pid';

const SAMPLE = [
  '4242',
  '/work/var/pg/data',
  '1763780000',
  '43517',
  '',
  '127.0.0.1',
  '  1234567     98304',
  'ready   ',
  '',
].join('\n');

describe('postmaster.pid', () => {
  it('parses pid, data dir, port and status', () => {
    expect(parsePostmasterPid(SAMPLE)).toEqual({
      pid: 4242,
      dataDir: '/work/var/pg/data',
      port: 43517,
      status: 'ready',
    });
  });

  it('accepts a file written before the status line', () => {
    const starting = SAMPLE.split('\n').slice(0, 6).join('\n');
    expect(parsePostmasterPid(starting)).toMatchObject({ pid: 4242, port: 43517, status: '' });
  });

  it.each([[''], ['garbage'], ['0\n/x\n1\n5432'], ['12\n/x\n1\nnot-a-port']])(
    'rejects a garbled file %j',
    (text) => {
      expect(parsePostmasterPid(text)).toBeUndefined();
    },
  );

  it('reads a missing file as undefined and a garbled one as "garbled"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmpid-'));
    expect(await readPostmasterPid(join(dir, 'postmaster.pid'))).toBeUndefined();
    await writeFile(join(dir, 'postmaster.pid'), 'half');
    expect(await readPostmasterPid(join(dir, 'postmaster.pid'))).toBe('garbled');
    await writeFile(join(dir, 'postmaster.pid'), SAMPLE);
    expect(await readPostmasterPid(join(dir, 'postmaster.pid'))).toMatchObject({ pid: 4242 });
  });
});

describe('classifyPostmaster', () => {
  const file = parsePostmasterPid(SAMPLE)!;

  it('no lock file: nothing running', () => {
    expect(classifyPostmaster(undefined, () => true)).toEqual({ kind: 'none' });
  });

  it('garbled lock file: stale', () => {
    expect(classifyPostmaster('garbled', () => true)).toEqual({ kind: 'stale' });
  });

  it('pid gone or not a PostgreSQL (reused pid): stale', () => {
    expect(classifyPostmaster(file, () => false)).toEqual({ kind: 'stale' });
  });

  it('live postmaster (e.g. orphaned by kill -9 of its parent): running, with its port', () => {
    const probed: number[] = [];
    const state = classifyPostmaster(file, (pid) => (probed.push(pid), true));
    expect(state).toEqual({ kind: 'running', pid: 4242, port: 43517 });
    expect(probed).toEqual([4242]);
  });
});
