import { readdirSync } from 'fs';
import { join } from 'path';
import type { CliCommand } from './cli-command';

const COMMAND_FILE = /\.command\.(ts|js)$/;

function isCommand(value: unknown): value is CliCommand {
  const c = value as CliCommand;
  return !!c && typeof c.name === 'string' && typeof c.run === 'function';
}

/** Loads every command exported by `<dir>/*.command.{ts,js}`, keyed (and sorted) by name. */
export function loadCommands(dir = join(__dirname, 'commands')): Map<string, CliCommand> {
  const commands = new Map<string, CliCommand>();
  const files = readdirSync(dir)
    .filter((f) => COMMAND_FILE.test(f) && !f.endsWith('.d.ts'))
    .sort();
  for (const file of files) {
    const exports = require(join(dir, file)) as Record<string, unknown>;
    for (const value of Object.values(exports).filter(isCommand)) {
      if (commands.has(value.name)) {
        throw new Error(`CLI command "${value.name}" is defined twice (${file})`);
      }
      commands.set(value.name, value);
    }
  }
  return new Map([...commands].sort(([a], [b]) => a.localeCompare(b)));
}

export function formatHelp(commands: Map<string, CliCommand>): string {
  const width = Math.max(0, ...[...commands.keys()].map((n) => n.length));
  return [
    'Usage: npm run cli -- <command> [arguments]',
    '       npm run cli -- <command> --help',
    '',
    'Commands:',
    ...[...commands.values()].map((c) => `  ${c.name.padEnd(width)}  ${c.description}`),
  ].join('\n');
}
