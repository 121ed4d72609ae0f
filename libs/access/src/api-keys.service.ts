import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '#app/config';
import { ApiKeyEntity, ApiKeyRepository } from '#app/persistence';
import { randomUUID } from 'node:crypto';
import { AccessRedis } from './access-redis.js';
import { ApiKeyCache, type CheckedKey } from './api-key-cache.js';
import {
  API_KEY_SCOPES,
  type ApiKeyScope,
  type ApiKeyStatus,
  type ApiKeyView,
  type AuthenticationResult,
} from './api-key.js';
import { generateApiKeySecret, hashApiKey, isWellFormedApiKey } from './api-key-secret.js';
import { KeyRequestError } from './key-request.error.js';

export interface CreateApiKeyRequest {
  name: string;
  plan: string;
  scopes?: ApiKeyScope[];
  /** ISO 8601; null or absent for a key that never expires. */
  expiresAt?: string | null;
}

// last_used_at is informative: writing it at most once a minute per key keeps writes off
// the hot path.
const LAST_USED_RESOLUTION_MS = 60_000;

/** Key management for the admin API and the command-line tool, and key checks for requests. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly lastUsedWrites = new Map<string, number>();
  private readonly cache: ApiKeyCache;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly config: AppConfig,
    private readonly redis: AccessRedis,
  ) {
    this.cache = new ApiKeyCache(config.limits.keyCacheMs);
  }

  /** Creates a key; the returned view carries `key`, which is never shown again. */
  async create(
    request: CreateApiKeyRequest,
    now = new Date(),
  ): Promise<ApiKeyView & { key: string }> {
    const plans = this.config.plans.map((plan) => plan.name);
    if (!plans.includes(request.plan)) {
      throw new KeyRequestError(
        'plan',
        request.plan,
        `plan must be one of: ${plans.join(', ')}`,
        plans,
      );
    }
    const scopes = request.scopes ?? ['read'];
    const unknownScope = scopes.find((scope) => !API_KEY_SCOPES.includes(scope));
    if (unknownScope !== undefined || scopes.length === 0) {
      throw new KeyRequestError(
        'scopes',
        scopes,
        `scopes must be a non-empty subset of: ${API_KEY_SCOPES.join(', ')}`,
        [...API_KEY_SCOPES],
      );
    }
    const expiresAt = request.expiresAt ? new Date(request.expiresAt) : null;
    if (expiresAt && (Number.isNaN(expiresAt.getTime()) || expiresAt <= now)) {
      throw new KeyRequestError(
        'expires_at',
        request.expiresAt,
        'expires_at must be an ISO 8601 time in the future',
      );
    }
    const secret = generateApiKeySecret();
    const entity: ApiKeyEntity = {
      id: randomUUID(),
      name: request.name,
      keyPrefix: secret.displayPrefix,
      keyHash: secret.hash,
      plan: request.plan,
      scopes: [...new Set(scopes)].join(','),
      expiresAt: expiresAt?.toISOString() ?? null,
      revokedAt: null,
      createdAt: now.toISOString(),
      lastUsedAt: null,
    };
    await this.keys.insert(entity);
    return { ...toView(entity, now), key: secret.key };
  }

  async list(now = new Date()): Promise<ApiKeyView[]> {
    return (await this.keys.list()).map((entity) => toView(entity, now));
  }

  async find(id: string, now = new Date()): Promise<ApiKeyView | null> {
    const entity = await this.keys.findById(id);
    return entity ? toView(entity, now) : null;
  }

  /**
   * False when no active or expired key has this id. Every API process is told at once (Redis
   * pub/sub) to drop its cached copy; one that misses the message drops it when its cache
   * entry ends (API_KEY_CACHE_SECONDS) or when its subscription reconnects.
   */
  async revoke(id: string, now = new Date()): Promise<boolean> {
    const revoked = await this.keys.revoke(id, now.toISOString());
    this.cache.forget(id);
    try {
      await this.redis.publish(this.redis.revocationChannel, id);
    } catch (error) {
      this.logger.warn(
        `key ${id} is revoked, but API processes could not be told (${(error as Error).message}); ` +
          'they stop accepting it when their cached copy ends',
      );
    }
    return revoked;
  }

  /** Drops a key from this process's cache (a revocation announced by another process). */
  forgetCached(id: string): void {
    this.cache.forget(id);
  }

  /** Drops every cached key (after missing announcements, e.g. while Redis was away). */
  forgetAllCached(): void {
    this.cache.clear();
  }

  /**
   * Checks a presented key: from this process's cache, else from the database, after
   * `beforeDatabaseRead` (which may throw to refuse the request without that read).
   */
  async authenticate(
    presented: string | undefined,
    now = new Date(),
    beforeDatabaseRead: () => Promise<void> = async () => undefined,
  ): Promise<AuthenticationResult> {
    if (!presented) return { ok: false, reason: 'missing' };
    if (!isWellFormedApiKey(presented)) return { ok: false, reason: 'malformed' };
    const hash = hashApiKey(presented);
    // Found by its hash (a digest of the whole key), so no comparison of secrets is left to make.
    // Not renewed on a hit: a key in constant use is still re-read once per cache period.
    const key = this.cache.get(hash, now) ?? (await this.lookUp(hash, now, beforeDatabaseRead));
    if ('reason' in key) return { ok: false, reason: key.reason };
    if (key.expiresAtMs !== null && key.expiresAtMs <= now.getTime()) {
      return { ok: false, reason: 'expired' };
    }
    // In the background: a request never waits for the database to note it.
    void this.noteUse(key.principal.id, now);
    return { ok: true, principal: key.principal };
  }

  /** The key with this hash from the database, kept when valid; else why it is refused. */
  private async lookUp(
    hash: string,
    now: Date,
    beforeDatabaseRead: () => Promise<void>,
  ): Promise<CheckedKey | { reason: 'unknown' | 'revoked' | 'expired' }> {
    const lookupGeneration = this.cache.generation;
    await beforeDatabaseRead();
    const entity = await this.keys.findByHash(hash);
    if (!entity) return { reason: 'unknown' };
    const status = statusOf(entity, now);
    if (status !== 'active') return { reason: status };
    const key: CheckedKey = {
      principal: Object.freeze({
        id: entity.id,
        name: entity.name,
        plan: entity.plan,
        scopes: Object.freeze(parseScopes(entity.scopes)),
      }),
      expiresAtMs: entity.expiresAt ? new Date(entity.expiresAt).getTime() : null,
    };
    this.cache.set(hash, key, now, lookupGeneration);
    return key;
  }

  private async noteUse(id: string, now: Date): Promise<void> {
    const last = this.lastUsedWrites.get(id) ?? 0;
    if (now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWrites.set(id, now.getTime());
    // Informative only: a database that is down or locked must not refuse or hold a request
    // the key allows (an ingest needs only Redis). Tried again a resolution later.
    await this.keys.touchLastUsed(id, now.toISOString()).catch((error: unknown) => {
      this.logger.warn(`could not note the use of key ${id}: ${(error as Error).message}`);
    });
  }
}

function parseScopes(scopes: string): ApiKeyScope[] {
  return scopes
    .split(',')
    .filter((scope): scope is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(scope));
}

function statusOf(entity: ApiKeyEntity, now: Date): ApiKeyStatus {
  if (entity.revokedAt) return 'revoked';
  if (entity.expiresAt && new Date(entity.expiresAt) <= now) return 'expired';
  return 'active';
}

function toView(entity: ApiKeyEntity, now: Date): ApiKeyView {
  return {
    id: entity.id,
    name: entity.name,
    key_prefix: entity.keyPrefix,
    plan: entity.plan,
    scopes: parseScopes(entity.scopes),
    status: statusOf(entity, now),
    expires_at: entity.expiresAt,
    revoked_at: entity.revokedAt,
    created_at: entity.createdAt,
    last_used_at: entity.lastUsedAt,
  };
}
