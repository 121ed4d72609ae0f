import { PATH_METADATA } from '@nestjs/common/constants.js';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';
import type { FastifyRequest } from 'fastify';

type RouteConfig = Record<string, unknown>;

const configOf = (handler: object): RouteConfig | undefined =>
  Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as RouteConfig | undefined;

/**
 * Adds `entries` to a route's Fastify config, which hooks ahead of Nest read from the request.
 * Nest's own RouteConfig replaces the whole config, so two concerns on one route would drop each
 * other's; each adds its own key here instead.
 */
export function WithRouteConfig(entries: RouteConfig): MethodDecorator {
  return (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    Reflect.defineMetadata(
      FASTIFY_ROUTE_CONFIG_METADATA,
      { ...configOf(handler), ...entries },
      handler,
    );
    return descriptor;
  };
}

/**
 * Adds `entries` to the config of every route of a controller, where the route has not set them
 * itself (method decorators run before the class's, so a route's own entry wins).
 */
export function WithRoutesConfig(entries: RouteConfig): ClassDecorator {
  return (target) => {
    const prototype = (target as unknown as { prototype: Record<string, unknown> }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (typeof handler !== 'function' || !Reflect.hasMetadata(PATH_METADATA, handler)) continue;
      Reflect.defineMetadata(
        FASTIFY_ROUTE_CONFIG_METADATA,
        { ...entries, ...configOf(handler) },
        handler,
      );
    }
  };
}

/** The config entry `key` of the route that serves `request`, if it has one. */
export function routeConfigEntry<T>(request: FastifyRequest, key: string): T | undefined {
  return (request.routeOptions.config as unknown as Record<string, T> | undefined)?.[key];
}
