import 'reflect-metadata';
import { loadConfigOrExit } from '../config/load-config';
import { releaseAllEmbeddedPostgres } from '../database/embedded/embedded-postgres';
import { CliUsageError } from './cli-command';
import { createCliContext } from './cli-context';
import { formatHelp, loadCommands } from './command-registry';

/** `npm run cli -- <command> [args]`; see `--help`. Exit codes: 0 ok, 1 failure, 2 usage. */
async function main(argv: string[]): Promise<number> {
  const commands = loadCommands();
  const [name, ...args] = argv;
  if (!name || ['--help', '-h', 'help'].includes(name)) {
    process.stdout.write(`${formatHelp(commands)}\n`);
    return 0;
  }
  const command = commands.get(name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n${formatHelp(commands)}\n`);
    return 2;
  }
  const usage = `Usage: npm run cli -- ${command.name} ${command.usage}`.trimEnd();
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${command.description}\n\n${usage}\n`);
    return 0;
  }
  const context = createCliContext(loadConfigOrExit());
  try {
    return (await command.run(args, context)) ?? 0;
  } catch (error) {
    if (error instanceof CliUsageError) {
      process.stderr.write(`${error.message}\n${usage}\n`);
      return 2;
    }
    throw error;
  } finally {
    await context.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    await releaseAllEmbeddedPostgres();
    process.exit(1);
  },
);
