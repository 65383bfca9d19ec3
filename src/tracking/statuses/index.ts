export * from './tracking-statuses';
