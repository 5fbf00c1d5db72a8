import { InvalidArgumentError } from 'commander';

/** `--url`: a host's web address (http://127.0.0.1:4400) or its RPC address (ws://…/rpc). */
export function parseHostUrl(text: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new InvalidArgumentError('expected a URL such as http://127.0.0.1:4400.');
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol))
    throw new InvalidArgumentError('expected an http(s):// or ws(s):// URL.');
  return text;
}

/** The host's RPC address for a `--url`. */
export function toRpcUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:') parsed.protocol = 'ws:';
  if (parsed.protocol === 'https:') parsed.protocol = 'wss:';
  if (parsed.pathname === '/' || parsed.pathname === '') parsed.pathname = '/rpc';
  return parsed.toString();
}
