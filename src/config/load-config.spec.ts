import { readFileSync } from 'fs';
import { join } from 'path';
import { CONFIG_VARIABLES } from './config-variables';
import { ConfigError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('applies defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '0.0.0.0',
      port: 8080,
      databaseUrl: undefined,
      databasePoolSize: 10,
      logLevel: 'info',
      bodyLimit: '1mb',
      migrateOnStart: true,
    });
    expect(config.dataDir).toBe(join(process.cwd(), 'var'));
    expect(config.isProduction).toBe(false);
  });

  it('reads and converts every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '9000',
      DATABASE_URL: 'postgresql://u:p@db.internal:5433/app',
      DATABASE_POOL_SIZE: '25',
      DATA_DIR: '/srv/tracking',
      LOG_LEVEL: 'debug',
      BODY_LIMIT: '512KB',
      MIGRATE_ON_START: 'no',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      host: '127.0.0.1',
      port: 9000,
      databaseUrl: 'postgresql://u:p@db.internal:5433/app',
      databasePoolSize: 25,
      dataDir: '/srv/tracking',
      logLevel: 'debug',
      bodyLimit: '512kb',
      migrateOnStart: false,
    });
    expect(config.isProduction).toBe(true);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
    });
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(() => Object.assign(config, { port: 1 })).toThrow();
  });

  it.each([
    ['PORT', 'abc', 'PORT="abc" must be an integer from 1 to 65535'],
    ['PORT', '70000', 'PORT="70000" must be an integer from 1 to 65535'],
    ['NODE_ENV', 'prod', 'NODE_ENV="prod" must be one of development, production, test'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL="loud" must be one of fatal, error, warn, info'],
    [
      'DATABASE_URL',
      'mysql://x@y/z',
      'DATABASE_URL="mysql://x@y/z" must be a URL like postgres://',
    ],
    ['DATABASE_POOL_SIZE', '1', 'DATABASE_POOL_SIZE="1" must be an integer from 2 to 500'],
    ['BODY_LIMIT', 'huge', 'BODY_LIMIT="huge" must be a size such as 512kb'],
    ['MIGRATE_ON_START', 'maybe', 'MIGRATE_ON_START="maybe" must be true or false'],
  ])('rejects %s=%s naming the variable and what is allowed', (name, value, expected) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(expected);
  });

  it('reports every invalid variable on one line', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^Invalid configuration: PORT="x" .+; LOG_LEVEL="y" /);
    }
  });

  it('has every variable documented in .env.example', () => {
    const example = readFileSync(join(__dirname, '..', '..', '.env.example'), 'utf8');
    for (const variable of Object.values(CONFIG_VARIABLES)) {
      expect(example).toMatch(new RegExp(`^#? ?${variable.name}=`, 'm'));
    }
  });
});
