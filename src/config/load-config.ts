import { existsSync } from 'fs';
import { AppConfig } from './app-config';
import { CONFIG_VARIABLES } from './config-variables';

/** Thrown when the environment is invalid; `message` is a single line meant for humans. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

type Values = { -readonly [K in keyof typeof CONFIG_VARIABLES]: unknown };

/**
 * Reads and validates the configuration. Every invalid variable is reported in one line, e.g.
 * `Invalid configuration: PORT="abc" must be an integer from 1 to 65535`.
 * An empty string counts as unset, so `PORT=` in a .env file means "use the default".
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const values = {} as Values;
  const problems: string[] = [];
  for (const [key, variable] of Object.entries(CONFIG_VARIABLES)) {
    const raw = env[variable.name] === '' ? undefined : env[variable.name];
    const source = raw ?? variable.default;
    if (source === undefined) {
      values[key as keyof Values] = undefined;
      continue;
    }
    const result = variable.parse(source);
    if ('error' in result) {
      problems.push(`${variable.name}=${JSON.stringify(source)} ${result.error}`);
    } else {
      values[key as keyof Values] = result.value;
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return new AppConfig(values as unknown as AppConfig);
}

/** Loads `./.env` into process.env (never overriding variables already set), when present. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/**
 * Entry-point helper (server and CLI): on invalid configuration print ONE line and exit 1,
 * instead of a stack trace.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    loadDotEnv();
    return loadConfig(env);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message.split('\n')[0]}\n`);
    process.exit(1);
  }
}
