import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Response bodies of the usage routes, as documentation classes (usage-representation.ts shapes them). */

@ApiSchema({
  name: 'HourlyUsage',
  description:
    'The hourly window: it opens at the first counted request and ends an hour later. Only ' +
    '2xx answers stay counted.',
})
class HourlyUsageDto {
  @ApiProperty({ type: 'integer', example: 1000, description: 'Requests allowed per window' })
  limit!: number;

  @ApiProperty({ type: 'integer', example: 42, description: 'Counted in the open window' })
  used!: number;

  @ApiProperty({ type: 'integer', example: 958 })
  remaining!: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the open window began; null when none is open',
    example: '2026-11-22T09:12:03.000Z',
  })
  window_started_at!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the open window ends; null when none is open (the next request opens one)',
    example: '2026-11-22T10:12:03.000Z',
  })
  reset_at!: string | null;
}

@ApiSchema({
  name: 'CreditUsage',
  description: 'Monthly credits: one per successful metered request, reset 00:00 UTC on the 1st.',
})
class CreditUsageDto {
  @ApiProperty({ type: 'integer', example: 10000 })
  limit!: number;

  @ApiProperty({ type: 'integer', example: 120 })
  used!: number;

  @ApiProperty({ type: 'integer', example: 9880 })
  remaining!: number;

  @ApiProperty({ format: 'date-time', example: '2026-12-01T00:00:00.000Z' })
  reset_at!: string;
}

@ApiSchema({
  name: 'BurstLimit',
  description: 'Uncharged answers a second per key (a charged 2xx takes none).',
})
class BurstLimitDto {
  @ApiProperty({ type: 'integer', example: 20 })
  limit_per_second!: number;
}

@ApiSchema({ name: 'Usage', description: "A key's plan and counters." })
export class UsageDto {
  @ApiProperty({ example: 'pro' })
  plan!: string;

  @ApiProperty({ type: () => HourlyUsageDto })
  hourly!: HourlyUsageDto;

  @ApiProperty({ type: () => CreditUsageDto })
  credits!: CreditUsageDto;

  @ApiProperty({ type: () => BurstLimitDto })
  burst!: BurstLimitDto;
}

@ApiSchema({
  name: 'KeyUsage',
  description: "A key's plan and counters, as the operator sees them.",
})
export class KeyUsageDto extends UsageDto {
  @ApiProperty({ format: 'uuid', example: '2d9c0b5e-1f4a-4e63-9b8d-7a6c5e4f3d2b' })
  id!: string;

  @ApiProperty({ example: 'pipeline' })
  name!: string;

  @ApiProperty({ enum: ['active', 'revoked', 'expired'], example: 'active' })
  status!: string;
}
