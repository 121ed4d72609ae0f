import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyRequest } from 'fastify';

/**
 * Adds `entries` to a route's Fastify config, which hooks ahead of Nest read from the request.
 * Nest's own RouteConfig replaces the whole config, so two concerns on one route would drop each
 * other's; each adds its own key here instead.
 */
export function WithRouteConfig(entries: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const current = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as
      Record<string, unknown> | undefined;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...entries }, handler);
    return descriptor;
  };
}

/** The config entry `key` of the route that serves `request`, if it has one. */
export function routeConfigEntry<T>(request: FastifyRequest, key: string): T | undefined {
  return (request.routeOptions.config as unknown as Record<string, T> | undefined)?.[key];
}
