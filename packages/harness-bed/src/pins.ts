/**
 * The harness versions the bed runs in CI: each one's transcripts are what the importers are
 * tested on. Raising a pin is a change like any other: run `npm run bed:latest` first to see
 * what the newer version writes that the importers do not know yet.
 */
export type BedHarness =
  | 'claude-code'
  | 'codex'
  | 'gemini'
  | 'pi'
  | 'opencode'
  | 'qwen'
  | 'copilot'
  | 'kilo'
  | 'cline';

export interface HarnessPin {
  readonly harness: BedHarness;
  /** The package on the npm registry. */
  readonly package: string;
  readonly version: string;
}

export const PINS: readonly HarnessPin[] = [
  { harness: 'claude-code', package: '@anthropic-ai/claude-code', version: '2.1.328' },
  { harness: 'codex', package: '@openai/codex', version: '0.169.0' },
  { harness: 'gemini', package: '@google/gemini-cli', version: '0.61.0' },
  { harness: 'pi', package: '@mariozechner/pi-coding-agent', version: '0.73.1' },
  { harness: 'opencode', package: 'opencode-ai', version: '1.18.33' },
  { harness: 'qwen', package: '@qwen-code/qwen-code', version: '0.24.4' },
  { harness: 'copilot', package: '@github/copilot', version: '1.0.102' },
  // 7.7.7, not the newest @kilocode/cli (7.8.1): the registry this bed installs from holds no
  // 7.8.1 of the platform packages (`@kilocode/cli-linux-x64` stops at 7.7.9), and the wrapper
  // is nothing without its platform binary. 7.7.7 is the newest release with both.
  { harness: 'kilo', package: '@kilocode/cli', version: '7.7.7' },
  { harness: 'cline', package: 'cline', version: '3.0.65' },
];

export function pinOf(harness: BedHarness): HarnessPin {
  const pin = PINS.find((p) => p.harness === harness);
  if (pin === undefined) throw new Error(`no pinned version of ${harness}`);
  return pin;
}
