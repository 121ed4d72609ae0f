import { API_KEY_SCOPES, type ApiKeyScope } from '#app/access';
import {
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';

export class CreateKeyDto {
  @IsString() @MinLength(1) @MaxLength(200) name!: string;
  @IsString() plan!: string;
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @IsIn(API_KEY_SCOPES, { each: true })
  scopes?: ApiKeyScope[];
  @IsOptional() @IsISO8601({ strict: true }) expires_at?: string | null;
}
