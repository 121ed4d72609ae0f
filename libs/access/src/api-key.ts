export const API_KEY_SCOPES = ['read', 'ingest'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

/** An API key as admins see it: everything but the secret. */
export interface ApiKeyView {
  id: string;
  name: string;
  key_prefix: string;
  plan: string;
  scopes: ApiKeyScope[];
  status: ApiKeyStatus;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** The caller a valid key identifies (one object shared by the requests of a cached key). */
export interface ApiKeyPrincipal {
  readonly id: string;
  readonly name: string;
  readonly plan: string;
  readonly scopes: readonly ApiKeyScope[];
}

export type AuthenticationResult =
  | { ok: true; principal: ApiKeyPrincipal }
  | { ok: false; reason: 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired' };
