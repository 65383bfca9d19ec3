export * from './data-source';
export * from './database-server';
export * from './database.module';
export * from './migration-runner';
export * from './snake-naming.strategy';
