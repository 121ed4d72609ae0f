import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

function problems(errors: ValidationError[], path = ''): { field: string; reasons: string[] }[] {
  return errors.flatMap((error) => {
    const field = path ? `${path}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, reasons: Object.values(error.constraints) }] : [];
    return [...own, ...problems(error.children ?? [], field)];
  });
}

/** Request bodies: unknown fields refused, failures in the documented 400 body. */
export const validationPipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  exceptionFactory: (errors) =>
    new ApiError(400, 'VALIDATION_FAILED', 'The request body is invalid', {
      errors: problems(errors),
    }),
});
