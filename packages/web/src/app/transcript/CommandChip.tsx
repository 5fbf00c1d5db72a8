import { commandLine, type CoreEventDataMap } from '@strand/session';
import type { CommandOutputEvent } from '@strand/transcript';
import { TerminalText } from './TerminalText.js';

type Command = CoreEventDataMap['session/command'];

/**
 * A command the person ran in the harness (not a message to the model): a chip with `/name args`,
 * its output collapsed beneath, drawn as terminal text. The outputs keep their own event rows in
 * the DOM (`data-testid="event"`), hidden while collapsed, as a tool card keeps its result's.
 */
export function CommandChip({
  command,
  outputs,
  link,
}: {
  command: Command;
  outputs: readonly CommandOutputEvent[];
  /** The command event's own link (`#seq`). */
  link: React.ReactNode;
}): React.JSX.Element {
  const line = commandLine(command);
  return (
    <div className="strand-command" data-testid="command-chip" data-command={command.name}>
      <div className="strand-command-head">
        <code className="strand-command-line" data-testid="command-line">
          {line}
        </code>{' '}
        <span className="strand-command-note">command</span> {link}
      </div>
      {outputs.length > 0 && (
        <details className="strand-command-output" data-testid="command-output">
          <summary>output</summary>
          {outputs.map((output) => (
            <div
              key={output.seq}
              data-testid="event"
              data-seq={output.seq}
              data-type="session/command-output"
            >
              <CommandOutput output={output} />
            </div>
          ))}
        </details>
      )}
    </div>
  );
}

/** One command output (stderr marked); alone when its command is not in the loaded window. */
export function CommandOutput({ output }: { output: CommandOutputEvent }): React.JSX.Element {
  return (
    <div className="strand-command-stream" data-stream={output.data.stream}>
      {output.data.stream === 'stderr' && <span className="strand-command-stderr">stderr</span>}
      <TerminalText text={output.data.text} />
    </div>
  );
}
