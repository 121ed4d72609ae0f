export * from './app-config.js';
export * from './config.error.js';
export * from './config.module.js';
export * from './load-config.js';
export * from './mcp-client-config.js';
export * from './plans.js';
