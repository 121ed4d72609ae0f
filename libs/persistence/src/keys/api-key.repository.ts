import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from '../entities/api-key.entity.js';
import { TransactionRunner } from '../transaction-runner.js';

@Injectable()
export class ApiKeyRepository {
  private readonly keys: Repository<ApiKeyEntity>;

  constructor(
    dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
  }

  // Writes go through the transaction runner: on SQLite, a write made beside a worker's open
  // transaction (the standalone process's one connection) would join it, and go with it, and
  // the runner waits for another process's write lock without holding the process.
  async insert(key: ApiKeyEntity): Promise<void> {
    await this.transactions.run((tx) => tx.manager.getRepository(ApiKeyEntity).insert(key));
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
    const result = await this.transactions.run((tx) =>
      tx.manager.getRepository(ApiKeyEntity).update({ id, revokedAt: IsNull() }, { revokedAt: at }),
    );
    return (result.affected ?? 0) > 0;
  }

  /** Informative: the caller does not wait for it (ApiKeysService). */
  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.transactions.run((tx) =>
      tx.manager.getRepository(ApiKeyEntity).update({ id }, { lastUsedAt: at }),
    );
  }
}
