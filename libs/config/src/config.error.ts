/** A configuration value is missing or wrong; the message names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
