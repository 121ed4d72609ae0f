export * from './pricing-mcp-server.js';
export { PRICING_TOOLS, type ToolRoute } from './pricing-tools.js';
