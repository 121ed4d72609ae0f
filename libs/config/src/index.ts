export * from './app-config.js';
export * from './config.error.js';
export * from './config.module.js';
export { DEFAULT_QUEUE_PREFIX } from './environment.js';
export * from './load-config.js';
export * from './mcp-client-config.js';
export * from './plans.js';
