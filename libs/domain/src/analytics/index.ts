export * from './monthly-equivalent.js';
export * from './statistics.js';
export * from './series-steps.js';
export * from './exchange-rates.js';
export * from './priced-document.js';
export * from './plan-summaries.js';
export * from './entry-price.js';
export * from './pricing-export.js';
