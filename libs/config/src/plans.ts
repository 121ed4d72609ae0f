import { readFileSync } from 'node:fs';
import type { PlanDefinition } from './app-config.js';
import { ConfigError } from './config.error.js';

export const FEATURES = ['companies', 'pages', 'files', 'pricing', 'webhooks', 'export'] as const;
export type Feature = (typeof FEATURES)[number];

export const DEFAULT_PLANS: PlanDefinition[] = [
  {
    name: 'free',
    requestsPerHour: 100,
    creditsPerMonth: 1_000,
    features: ['companies', 'pages', 'files'],
  },
  {
    name: 'pro',
    requestsPerHour: 1_000,
    creditsPerMonth: 10_000,
    features: ['companies', 'pages', 'files', 'pricing'],
  },
  {
    name: 'enterprise',
    requestsPerHour: 10_000,
    creditsPerMonth: 100_000,
    features: [...FEATURES],
  },
];

interface PlanFileEntry {
  requests_per_hour?: unknown;
  credits_per_month?: unknown;
  features?: unknown;
}

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value > 0;

/** Reads PLANS_FILE: `{"<plan>": {requests_per_hour, credits_per_month, features}}`, cheapest first. */
export function loadPlansFile(path: string): PlanDefinition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`PLANS_FILE: cannot read ${path} as JSON (${(error as Error).message})`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ConfigError('PLANS_FILE: must hold an object of plans');
  }
  const plans = Object.entries(parsed as Record<string, PlanFileEntry>).map(([name, entry]) => {
    const features = entry?.features;
    if (
      !/^[a-z][a-z0-9_-]*$/.test(name) ||
      !isPositiveInteger(entry?.requests_per_hour) ||
      !isPositiveInteger(entry?.credits_per_month) ||
      !Array.isArray(features) ||
      !features.every((feature) => (FEATURES as readonly unknown[]).includes(feature))
    ) {
      throw new ConfigError(
        `PLANS_FILE: plan "${name}" needs requests_per_hour and credits_per_month (positive integers) and features from ${FEATURES.join(', ')}`,
      );
    }
    return {
      name,
      requestsPerHour: entry.requests_per_hour as number,
      creditsPerMonth: entry.credits_per_month as number,
      features: features as string[],
    };
  });
  if (plans.length === 0) throw new ConfigError('PLANS_FILE: defines no plan');
  return plans;
}
