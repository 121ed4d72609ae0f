import { describe, expect, it } from 'vitest';
import { ConfigError } from './config.error.js';
import { loadMcpClientConfig } from './mcp-client-config.js';

describe('loadMcpClientConfig', () => {
  it('calls the local API by default', () => {
    expect(loadMcpClientConfig({ PRICING_API_KEY: 'pi_key' })).toEqual({
      apiUrl: 'http://127.0.0.1:3000/v1',
      apiKey: 'pi_key',
    });
  });

  it('takes any http(s) base URL ending in /v1', () => {
    const env = { PRICING_API_KEY: 'pi_key', PRICING_API_URL: 'https://api.example.com/v1/' };
    expect(loadMcpClientConfig(env).apiUrl).toBe('https://api.example.com/v1/');
  });

  it('refuses a missing key and a URL that is not the API base, naming each variable', () => {
    expect(() => loadMcpClientConfig({ PRICING_API_KEY: '' })).toThrow(
      /PRICING_API_KEY: an API key is required/,
    );
    for (const url of ['http://127.0.0.1:3000', 'ftp://host/v1', 'not a url', 'http://h/v1?x=1']) {
      expect(() => loadMcpClientConfig({ PRICING_API_KEY: 'k', PRICING_API_URL: url })).toThrow(
        ConfigError,
      );
    }
    expect(() => loadMcpClientConfig({ PRICING_API_URL: 'http://h' })).toThrow(
      /PRICING_API_KEY[^]*PRICING_API_URL/,
    );
  });
});
