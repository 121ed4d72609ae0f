import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { jsonShapeProblem } from '#app/contracts';
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
 * Refuses, before class-transformer sees it, a body it would choke on (nested thousands deep, or
 * with a `constructor` key) or that the database would refuse (a NUL character).
 */
class ShapeCheckingValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const shape = jsonShapeProblem(value);
    if (shape) throw invalidBody([{ field: shape.field, reasons: [shape.reason] }]);
    return super.transform(value, metadata);
  }
}

/** Request bodies: unknown fields refused, failures in the documented 400 body. */
export const validationPipe = new ShapeCheckingValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  exceptionFactory: (errors) => invalidBody(problems(errors)),
});
