import { createHash } from 'node:crypto';

/** A Lua script and its SHA-1, the name Redis keeps it under once loaded. */
export class LuaScript {
  readonly sha: string;

  constructor(readonly lua: string) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }
}
