import type { CompanyRecord } from '../records.js';
import type { CommandOrigin } from './command-origin.js';

export class RegisterCompany {
  constructor(
    readonly record: CompanyRecord,
    readonly origin: CommandOrigin,
  ) {}
}
