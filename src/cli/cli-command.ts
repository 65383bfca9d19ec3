import { parseArgs, type ParseArgsConfig } from 'util';
import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';

/**
 * One CLI command. Put each in `src/cli/commands/<name>.command.ts` exporting it (any export
 * name); the registry finds it by file name, so adding a command touches no shared file.
 */
export interface CliCommand {
  /** What follows `npm run cli --`, e.g. `migrate` or `bootstrap`. */
  name: string;
  /** One line, shown by `--help`. */
  description: string;
  /** Arguments synopsis, e.g. `--email <address> [--name <name>]`. */
  usage: string;
  /** Returns the exit code (default 0). Throw CliUsageError for bad arguments. */
  run(args: string[], context: CliContext): Promise<number | void>;
}

export interface CliContext {
  config: AppConfig;
  /**
   * An initialised DataSource on the configured database (the embedded PostgreSQL is started,
   * or reused when the API is running). Migrations are not run. Closed after the command.
   */
  dataSource(): Promise<DataSource>;
  /**
   * The full Nest application context (AppModule, no HTTP server; migrations run as at start),
   * for commands that reuse services: `(await context.app()).get(UsersService)`.
   */
  app(): Promise<INestApplicationContext>;
  /** Writes a line of the command's result to stdout (diagnostics go to stderr). */
  print(line: string): void;
}

/** Bad arguments: the message and the command's usage are printed, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/** A command's `--options` (no positionals); unknown or malformed ones are a CliUsageError. */
export function parseOptions<const O extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: O,
) {
  try {
    return parseArgs({ args, options }).values;
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
}

/**
 * The value of an option naming a workspace (or another record) by id; a CliUsageError with
 * `message` when it is missing or not shaped like a uuid. No look-up: the caller's.
 */
export function idOption(value: string | undefined, message: string): string {
  if (!value || !/^[0-9a-f-]{36}$/i.test(value)) throw new CliUsageError(message);
  return value;
}
