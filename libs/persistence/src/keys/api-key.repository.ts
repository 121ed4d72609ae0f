import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from '../entities/api-key.entity.js';

@Injectable()
export class ApiKeyRepository {
  private readonly keys: Repository<ApiKeyEntity>;

  constructor(dataSource: DataSource) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.keys.insert(key);
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ id });
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ keyHash });
  }

  /** Marks the key revoked; false when there is no such key or it was revoked already. */
  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.keys.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: at });
  }
}
