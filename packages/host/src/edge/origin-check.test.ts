import { describe, expect, it } from 'vitest';
import { accessPolicy, checkHostHeader, checkOrigin, parseOrigin } from './origin-check.js';

describe('parseOrigin', () => {
  it('accepts bare http(s) origins (one trailing slash, any case) and nothing with a path, query or other scheme', () => {
    expect(parseOrigin('http://App.Example:8080')).toBe('http://app.example:8080');
    expect(parseOrigin('https://ui.example/')).toBe('https://ui.example');
    expect(parseOrigin('http://[::1]:4400')).toBe('http://[::1]:4400');
    for (const bad of [
      'ui.example',
      'http://ui.example/x',
      'http://ui.example?q',
      'ws://ui.example',
      'null',
      '*',
      '',
    ])
      expect(parseOrigin(bad), bad).toBeUndefined();
  });
});

describe('accessPolicy', () => {
  it("holds the bound address and the loopback names with the host's port, plus the allowed origins", () => {
    const policy = accessPolicy('127.0.0.2', 4400, ['https://ui.example']);
    expect([...policy.origins].sort()).toEqual(
      [
        'http://127.0.0.1:4400',
        'http://127.0.0.2:4400',
        'http://[::1]:4400',
        'http://localhost:4400',
        'https://ui.example',
      ].sort(),
    );
    expect(policy.loopback).toBe(true);
  });

  it('a wildcard bind is off loopback and owns every interface address', () => {
    const policy = accessPolicy('0.0.0.0', 4400, []);
    expect(policy.loopback).toBe(false);
    expect(policy.origins.has('http://0.0.0.0:4400')).toBe(true);
    expect(policy.origins.has('http://127.0.0.1:4400')).toBe(true);
    expect(checkHostHeader(policy, 'anything.example:4400')).toEqual({ kind: 'allowed' });
  });
});

describe('checkOrigin and checkHostHeader', () => {
  const policy = accessPolicy('127.0.0.1', 4400, []);

  it('absent Origin passes (not a browser); a foreign or opaque one does not', () => {
    expect(checkOrigin(policy, undefined).kind).toBe('allowed');
    expect(checkOrigin(policy, 'http://localhost:4400').kind).toBe('allowed');
    for (const origin of ['http://localhost:4401', 'https://localhost:4400', 'http://evil.example', 'null'])
      expect(checkOrigin(policy, origin).kind, origin).toBe('refused');
  });

  it('on loopback only a loopback name with our port is a Host for us', () => {
    for (const host of ['127.0.0.1:4400', 'localhost:4400', '[::1]:4400', '127.1.2.3:4400'])
      expect(checkHostHeader(policy, host).kind, host).toBe('allowed');
    for (const host of [
      undefined,
      'evil.example:4400',
      'localhost',
      'localhost:80',
      'localhost.:4400',
      '127.0.0.1:4400@evil',
      'localhost:4400/x',
    ])
      expect(checkHostHeader(policy, host).kind, String(host)).toBe('refused');
  });
});
