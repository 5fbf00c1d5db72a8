import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * An ACP prompt → the text of a Strand `session.prompt` (which takes text). Text blocks are
 * kept as written; an embedded text resource is its text under its URI; a link is its URI, so a
 * model sees what the editor referred to. Images and audio have no text form here (the agent
 * does not advertise them), so they are left out rather than guessed at.
 */
export function promptText(prompt: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of prompt) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(block.uri);
    else if (block.type === 'resource' && 'text' in block.resource)
      parts.push(`${block.resource.uri}\n${block.resource.text}`);
  }
  return parts.join('\n\n');
}
