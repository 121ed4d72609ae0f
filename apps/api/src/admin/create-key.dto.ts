import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { API_KEY_SCOPES, type ApiKeyScope } from '#app/access';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';

@ApiSchema({ name: 'CreateApiKeyRequest' })
export class CreateKeyDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'pipeline' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    description: 'One of the configured plans (default: free, pro, enterprise)',
    example: 'pro',
  })
  @IsString()
  plan!: string;

  @ApiPropertyOptional({
    enum: API_KEY_SCOPES,
    isArray: true,
    minItems: 1,
    maxItems: API_KEY_SCOPES.length,
    default: ['read'],
    description: 'read for the query endpoints, ingest for the ingestion endpoints',
    example: ['read', 'ingest'],
  })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(API_KEY_SCOPES.length)
  @IsIn(API_KEY_SCOPES, { each: true })
  scopes?: ApiKeyScope[];

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'ISO 8601 time in the future; null or absent for a key that never expires',
    example: '2030-01-01T00:00:00Z',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expires_at?: string | null;
}
