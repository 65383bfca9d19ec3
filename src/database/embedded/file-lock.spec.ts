import { existsSync } from 'fs';
import { mkdtemp, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { withFileLock } from './file-lock';

describe('withFileLock', () => {
  it('serialises concurrent critical sections', async () => {
    const lock = join(await mkdtemp(join(tmpdir(), 'lock-')), 'start.lock');
    const events: string[] = [];
    const section = (name: string) =>
      withFileLock(lock, async () => {
        events.push(`${name}:in`);
        await new Promise((r) => setTimeout(r, 30));
        events.push(`${name}:out`);
      });
    await Promise.all([section('a'), section('b')]);
    expect(events).toEqual(
      events[0] === 'a:in'
        ? ['a:in', 'a:out', 'b:in', 'b:out']
        : ['b:in', 'b:out', 'a:in', 'a:out'],
    );
    expect(existsSync(lock)).toBe(false);
  });

  it('takes over a lock left by a dead process', async () => {
    const lock = join(await mkdtemp(join(tmpdir(), 'lock-')), 'start.lock');
    await writeFile(lock, String(2 ** 22 + 17));
    await expect(withFileLock(lock, async () => 'done', 1000)).resolves.toBe('done');
  });

  it('releases the lock when the section throws', async () => {
    const lock = join(await mkdtemp(join(tmpdir(), 'lock-')), 'start.lock');
    await expect(withFileLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(existsSync(lock)).toBe(false);
  });

  it('times out while a live process holds it', async () => {
    const lock = join(await mkdtemp(join(tmpdir(), 'lock-')), 'start.lock');
    await writeFile(lock, String(process.pid));
    await expect(withFileLock(lock, async () => 'never', 200)).rejects.toThrow(/Timed out/);
  });
});
