export * from './app-config';
export * from './config-variables';
export * from './config.module';
export * from './load-config';
