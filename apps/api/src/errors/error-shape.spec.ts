import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ErrorShapes } from './error-shape.js';

const route = (url: string, errorShape?: string) =>
  ({ url, method: 'GET', config: errorShape ? { errorShape } : {} }) as unknown as RouteOptions;

describe('ErrorShapes', () => {
  const shapes = new ErrorShapes();
  shapes.learn(route('/v1/api/files/:slug/versions', 'coded'));
  shapes.learn(route('/v1/api/pricing/:slug', 'coded'));
  shapes.learn(route('/v1/api/companies/:slug', 'general'));
  shapes.learn(route('/health/live'));

  it('gives a path no route serves the shape of the coded routes it extends', () => {
    for (const path of [
      '/v1/api/files',
      '/v1/api/files/',
      '/v1/api/files?x=1',
      '/v1/api/files/acme/nothing-here',
      '/v1/api/pricing/acme/unknown',
    ]) {
      expect(shapes.ofPath(path), path).toBe('coded');
    }
  });

  it('gives every other path the general shape', () => {
    for (const path of ['/v1/api/filesystem', '/v1/api/companies/x/y', '/v1/nothing', '', '/']) {
      expect(shapes.ofPath(path), path).toBe('general');
    }
  });
});
