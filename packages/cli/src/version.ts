import manifest from '../package.json' with { type: 'json' };

/**
 * The CLI's version, from its package.json: what `strand mcp` and `strand acp` tell the client
 * they serve. The bundle inlines the file, so a release bump is one edit.
 */
export const VERSION: string = manifest.version;
