import { newSessionHeader, SessionId } from '@strand/session';
import { workloadEvents, workloadSession } from '@strand/workload';
import { describe, expect, it } from 'vitest';
import { renderClaudeTranscript } from './claude-code/transcript.js';
import { renderCodexRollout } from './codex/rollout.js';
import type { ExportDocument } from './document.js';
import { renderGeminiChat } from './gemini/chat.js';
import { renderHtml } from './html-format.js';
import { renderJson } from './json-format.js';
import { renderMarkdown } from './markdown-format.js';
import { sha256Hex } from './sha256.js';
import { documentOf, twoToolTurns } from './test-document.js';

/**
 * The bytes each format writes, pinned by digest over fixed documents: the renderers are written
 * for speed (bench:export), and a rewrite must not change a byte by accident. A deliberate change
 * of a format updates its digests here. The harness files' marker (`marker.ts`) is left out of the
 * pin — its digest covers the rest, which is pinned — so a field added to the marker moves nothing.
 */
const RENDERERS: Record<string, (document: ExportDocument) => string> = {
  markdown: renderMarkdown,
  html: renderHtml,
  json: renderJson,
  'claude-code': (document) => renderClaudeTranscript(document).text,
  codex: (document) => renderCodexRollout(document).text,
  gemini: (document) => renderGeminiChat(document).text,
};

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Every kind of row and record the formats draw, with text that needs quoting and escaping. */
const varied = documentOf(
  [
    ['model/selection', { provider: 'anthropic', model: 'claude-sonnet-4-5' }],
    ['session/title', { title: 'Files <and> “images”' }],
    ['turn/start', {}],
    [
      'user/message',
      {
        content: [
          { type: 'text', text: 'Look at [this](https://example.test) <b>now</b> & `code` 😀' },
          { type: 'image', ref: 'img-1' },
          { type: 'image', ref: 'img-missing' },
        ],
        author: 'human',
      },
    ],
    ['step/start', {}],
    [
      'assistant/message',
      {
        content: 'Here:\n\n```ts\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [ ] task',
        toolCalls: [{ id: 'c1', name: 'Bash', arguments: '{"command":"ls","deep":{"x":[1,2]}}' }],
      },
    ],
    ['tool/call', { callId: 'c1', name: 'Bash', arguments: '{"command":"ls","deep":{"x":[1,2]}}' }],
    [
      'tool/call',
      { callId: 'call_1|fc_2', name: 'Write', arguments: `{"text":"${'word  \\n\\t '.repeat(40)}"}` },
    ],
    ['tool/result', { callId: 'c1', content: '\u001b[31mred.txt\u001b[0m', isError: true, code: 'EXIT_1' }],
    [
      'tool/result',
      {
        callId: 'call_1|fc_2',
        content: [
          { type: 'text', text: 'written' },
          { type: 'image', ref: 'img-1' },
        ],
      },
    ],
    ['step/end', {}],
    ['step/start', {}],
    ['request/header', { model: 'claude-opus-4' }],
    ['assistant/message', { content: 'Done: "quoted" \\ back\u2028slash' }],
    ['step/end', {}],
    ['turn/end', { reason: 'completed' }],
    ['turn/start', {}],
    ['session/command', { name: 'compact' }],
    ['session/command-output', { text: 'Compacted.', stream: 'stdout' }],
    ['user/message', { content: 'a harness note', author: 'system' }],
    ['user/message', { content: 'Go on', author: 'human' }],
    ['x/newer', { anything: '<script>' }],
    ['tool/call', { callId: 'c3', name: 'Read', arguments: 'not json' }],
    ['turn/end', { reason: 'error', error: 'overloaded' }],
    ['turn/start', {}],
    ['user/message', { content: 'Still there?', author: 'human' }],
  ],
  { title: 'Files <and> images' },
);

const workload = (index: number, events: number): ExportDocument => ({
  header: newSessionHeader({ id: SessionId(`bytes-${index}`), createdAt: 0, cwd: '/work/bytes/project' }),
  events: workloadEvents(workloadSession(index, events)),
  title: `Workload ${index}`,
});

const DOCUMENTS: Record<string, ExportDocument> = {
  varied: { ...varied, attachments: new Map([['img-1', { mediaType: 'image/png', base64: PNG }]]) },
  twoToolTurns: twoToolTurns('openai', 'gpt-5', 'shell', '{"command":["ls","-a"]}'),
  workload0: workload(0, 400),
  workload1: workload(1, 1_500),
};

/** The text without the marker's value (its own digest pins the rest, which is pinned here). */
const pinned = (text: string): string => text.replace(/"strandExport":\{[^}]*\}/, '"strandExport":{}');

describe('export bytes', () => {
  it('each format writes exactly the bytes it wrote before, for each fixed document', () => {
    const digests = Object.fromEntries(
      Object.entries(DOCUMENTS).map(([name, document]) => [
        name,
        Object.fromEntries(
          Object.entries(RENDERERS).map(([format, render]) => [format, sha256Hex(pinned(render(document)))]),
        ),
      ]),
    );
    expect(digests).toEqual(GOLDEN);
  });
});

const GOLDEN = {
  varied: {
    markdown: 'c8d7ee3150e6a11bd056e56cb8de10c87031ab222650d723d7fde60ace35e9c8',
    html: 'aa991cce76e503210c084039fe11bd10e16990f0aa76eb23a7679fd571a4ff71',
    json: '6d4968c4696d9337f4c97ec823ecabbd3b68b1b117e3f3a64fb9a5c8041d89a8',
    'claude-code': 'c274ced3136229d77de71bda0c0ddf64978b1fdcecbed7573028891aa27feb79',
    codex: 'acc24b2fa9c53ae2a100f86f180289207c02a3f133e0828f257bbf7384d19e28',
    gemini: '58c38ed3f210d3bd73f2bc3105147f5017125ff1cc5d8bb2feb7bd14f0e547e6',
  },
  twoToolTurns: {
    markdown: '4c49b1f63612ddf0e01c5f12d4628f035fdf1105c2466d0661b9868e05517661',
    html: '15e58d285a3ef23502ccc092a1a6ef6d330f07eaf9fddb2fd117ba732e788922',
    json: 'bf2a91a0f2deae98530dac3ccdebfa563bf20731160116ae9ea407cefe538bbc',
    'claude-code': '45aa816e19231465f765e27cba83eeb7e4d1d0b396efbe96658514c30e006baf',
    codex: 'd66d442c6e472bd4bd6e6b7d16c4b387e7b8e44091349e639375a1e8563d1d60',
    gemini: '692c8c59ce760483bc9e32aa51d4f98599bdb0eff9044b0edc3ec1bf4502e0d0',
  },
  workload0: {
    markdown: 'a56dce4a3654462557e630b2390ebe6037a804ccae25692f5dbd53315aaf7126',
    html: '08a7aadc8b2075594d37b8181601abaeaafef540798090fad3cecabe7092234c',
    json: '3e5363f77bf3a39ee9847364fa6ad577a145fb0eaaddc08fe37dd358df113dfe',
    'claude-code': '19a3c41b72392993bdd0af872441cc9412db507429c522a0b147bc230efd8824',
    codex: '8eb1be92cb9fe2d30782905f0f4ed9e1a58c134fb6c5e16d645ee97128ebb1a2',
    gemini: '1c9532edd3ffa31dd73a274b284afa6ada5653bb6e606f3e414702af25fb5427',
  },
  workload1: {
    markdown: 'd133ad345d21b82affe6bf33d51113d5ae66005d633ae1f2e2fcd71388c720cf',
    html: '570784114040a3370800264f80e4c41beeb3dfd70d95fe2a08d5cc6b7223a0fb',
    json: '9ae5726f70459eda457650bee578371d8c829cdd7bd3c404638396200b42e8bb',
    'claude-code': 'ab84e9d3374da9e33dde1079b29063ab9e273548baa8f3502ff02961344aaf6f',
    codex: '6663db39636f9088b770f8c525abef2075b9ebd0123ec1089682e77dfe71a3c1',
    gemini: '1e70349ef855922b7aafcad2eb6c3e5946d7f0bfbed427c76d9a1843070406b4',
  },
};
