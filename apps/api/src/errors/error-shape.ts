import type { FastifyRequest, RouteOptions } from 'fastify';
import { routeConfigEntry, WithRouteConfig } from '../http/route-config.js';

/**
 * The two error bodies (docs/API.md, "Errors"): files and pricing answer
 * `{error, code, details?}`, every other route `{error, message, details?}`.
 */
export type ErrorShape = 'general' | 'coded';

declare module 'fastify' {
  interface FastifyInstance {
    /** The error shape of each route family, learnt from the routes as they are registered. */
    errorShapes: ErrorShapes;
  }
}

/** The route config key under which a route declares its error shape. */
const ERROR_SHAPE = 'errorShape';

/** Declares the error body a route answers in (ApiErrorResponses applies it with the family). */
export function DeclareErrorShape(shape: ErrorShape): MethodDecorator {
  return WithRouteConfig({ [ERROR_SHAPE]: shape });
}

/**
 * Which shape an error answer takes. A routed request takes its route's declaration. A request
 * no route serves (an unknown path, a method not served, a request line too long to route) takes
 * the shape of the routes whose path it extends: each coded route makes the static part of its
 * path, before the first parameter, a root under which every path is coded.
 */
export class ErrorShapes {
  private readonly codedRoots = new Set<string>();

  /** For Fastify's onRoute hook: learns the root of a route that declares the coded shape. */
  learn(route: RouteOptions): void {
    if ((route.config as Record<string, unknown> | undefined)?.[ERROR_SHAPE] !== 'coded') return;
    const staticPart = route.url.split(/[:*]/, 1)[0]!;
    this.codedRoots.add(staticPart.replace(/\/+$/, ''));
  }

  of(request: FastifyRequest): ErrorShape {
    return routeConfigEntry<ErrorShape>(request, ERROR_SHAPE) ?? this.ofPath(request.url);
  }

  /** The shape for a path (with or without its query) that no route serves. */
  ofPath(path: string): ErrorShape {
    for (const root of this.codedRoots) {
      if (path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}?`)) {
        return 'coded';
      }
    }
    return 'general';
  }
}

/** The shape of `request`'s error answers. */
export function errorShapeOf(request: FastifyRequest): ErrorShape {
  return request.server.errorShapes.of(request);
}
