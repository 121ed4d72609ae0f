import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

function problems(errors: ValidationError[], path = ''): { field: string; reasons: string[] }[] {
  return errors.flatMap((error) => {
    const field = path ? `${path}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, reasons: Object.values(error.constraints) }] : [];
    return [...own, ...problems(error.children ?? [], field)];
  });
}

/** The documented 400 of a request body, listing each field at fault. */
export function invalidBody(errors: { field: string; reasons: string[] }[]): ApiError {
  return new ApiError(400, 'VALIDATION_FAILED', 'The request body is invalid', { errors });
}

/**
 * Request bodies: unknown fields refused, failures in the documented 400 body. What
 * class-transformer would choke on (nesting thousands deep, a `constructor` key) or the database
 * refuse (a NUL character) the body parser refused already (request-bodies.ts).
 */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  exceptionFactory: (errors) => invalidBody(problems(errors)),
});
