import { mkdtemp, writeFile } from 'fs/promises';
import { tmpdir } from 'os';
import { join } from 'path';
import { formatHelp, loadCommands } from './command-registry';

describe('CLI command registry', () => {
  it('finds the built-in commands', () => {
    const commands = loadCommands();
    expect(commands.get('migrate')).toMatchObject({ name: 'migrate' });
  });

  it('loads *.command files only, sorted by name, and lists them in --help', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cmds-'));
    const command = (name: string) =>
      `exports.c = { name: '${name}', description: 'does ${name}', usage: '', run: async () => 0 };`;
    await writeFile(join(dir, 'zeta.command.js'), command('zeta'));
    await writeFile(join(dir, 'alpha.command.js'), command('alpha'));
    await writeFile(join(dir, 'helper.js'), 'throw new Error("must not be loaded")');
    const commands = loadCommands(dir);
    expect([...commands.keys()]).toEqual(['alpha', 'zeta']);
    expect(formatHelp(commands)).toMatch(/alpha {2}does alpha\n {2}zeta {3}does zeta/);
  });

  it('rejects two commands with the same name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cmds-'));
    const body = `exports.c = { name: 'x', description: '', usage: '', run: async () => 0 };`;
    await writeFile(join(dir, 'a.command.js'), body);
    await writeFile(join(dir, 'b.command.js'), body);
    expect(() => loadCommands(dir)).toThrow(/defined twice/);
  });
});
