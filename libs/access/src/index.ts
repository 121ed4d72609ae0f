export * from './access.module.js';
export * from './api-key.js';
export * from './api-keys.service.js';
export * from './key-request.error.js';
export { secretsEqual } from './api-key-secret.js';
