import { describe, expect, it } from 'vitest';
import {
  holdsFloor,
  mayServe,
  skipReason,
  UNREACHABLE,
  type ReplicaReading,
} from './replica-eligibility.js';

const floor = {
  names: ['companies', 'pages'],
  stamp: '10.5.2026-01-01T00:00:00.000Z 10.5.2026-01-01T00:00:01.000Z',
};
const holding: ReplicaReading = {
  reachable: true,
  lagMs: 120,
  stamps: new Map([
    ['companies', '10.5.2026-01-01T00:00:00.000Z'],
    ['pages', '10.5.2026-01-01T00:00:01.000Z'],
    ['plan-search', '9.4.2025-12-31T00:00:00.000Z'],
  ]),
};

describe('read replica eligibility', () => {
  it('serves a request from a reachable replica within the lag limit holding its read models as stamped', () => {
    expect(mayServe(holding, floor, 5_000)).toBe(true);
  });

  it('skips a replica that lags more than the limit, whatever it holds', () => {
    expect(skipReason({ ...holding, lagMs: 5_001 }, 5_000)).toContain(
      'more than READ_REPLICA_MAX_LAG_MS (5000)',
    );
    expect(mayServe({ ...holding, lagMs: 5_001 }, floor, 5_000)).toBe(false);
    expect(mayServe({ ...holding, lagMs: 5_000 }, floor, 5_000)).toBe(true);
  });

  it('skips a replica that cannot be reached or cannot tell its lag', () => {
    expect(skipReason(UNREACHABLE, 5_000)).toBe('it cannot be reached');
    expect(mayServe({ ...holding, lagMs: null }, floor, 5_000)).toBe(false);
  });

  it('does not serve a request from a replica behind one of its read models, even within the limit', () => {
    const behind = new Map(holding.stamps).set('pages', '9.4.2026-01-01T00:00:00.500Z');
    expect(holdsFloor({ ...holding, stamps: behind }, floor)).toBe(false);
    expect(mayServe({ ...holding, stamps: behind }, floor, 5_000)).toBe(false);
  });

  it('compares only the read models the request reads', () => {
    expect(
      holdsFloor(holding, { names: ['companies'], stamp: '10.5.2026-01-01T00:00:00.000Z' }),
    ).toBe(true);
  });

  it('matches a checkpoint that does not exist yet on both sides', () => {
    expect(
      holdsFloor(holding, {
        names: ['companies', 'exchange-rates'],
        stamp: '10.5.2026-01-01T00:00:00.000Z ',
      }),
    ).toBe(true);
  });
});
