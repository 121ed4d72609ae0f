export * from './pricing-mcp-server.js';
export { PRICING_TOOLS, type RouteParameterName, type ToolRoute } from './pricing-tools.js';
