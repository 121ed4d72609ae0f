import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** An API key; only the SHA-256 of the secret is stored. */
@Entity('api_keys')
@Unique('uq_api_keys_key_hash', ['keyHash'])
export class ApiKeyEntity {
  @PrimaryColumn('varchar', { length: 36 }) id!: string;
  @Column('varchar', { length: 200 }) name!: string;
  /** The first characters of the key, so an operator can tell keys apart. */
  @Column('varchar', { name: 'key_prefix', length: 16 }) keyPrefix!: string;
  @Column('varchar', { name: 'key_hash', length: 64 }) keyHash!: string;
  @Column('varchar', { length: 64 }) plan!: string;
  /** Comma-separated. */
  @Column('varchar', { length: 200 }) scopes!: string;
  @Column('varchar', { name: 'expires_at', length: 32, nullable: true }) expiresAt!: string | null;
  @Column('varchar', { name: 'revoked_at', length: 32, nullable: true }) revokedAt!: string | null;
  @Column('varchar', { name: 'created_at', length: 32 }) createdAt!: string;
  @Column('varchar', { name: 'last_used_at', length: 32, nullable: true }) lastUsedAt!:
    string | null;
}
