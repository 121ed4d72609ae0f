export * from './http-observation.js';
export * from './logging.js';
export * from './metrics.js';
export * from './observability.module.js';
export * from './queue-inspector.js';
export * from './shutdown-deadline.js';
