export * from './change-filter.js';
export * from './public-address.js';
export * from './signature.js';
export * from './webhook-job.js';
export * from './webhook-sender.js';
export * from './webhook-url.js';
