export * from './domain-name.ts';
