import type { WireEvent } from '@strand/protocol';
import { readCoreEvent, type CoreEventDataMap } from '@strand/session';

/** A `session/command-output` event with its data read. */
export interface CommandOutputEvent {
  readonly seq: number;
  readonly data: CoreEventDataMap['session/command-output'];
}

export interface CommandRows {
  /** Each command's outputs (by the command's seq), in log order. */
  readonly outputs: ReadonlyMap<number, readonly CommandOutputEvent[]>;
  /** The seqs of outputs drawn inside their command's chip (so not as rows of their own). */
  readonly attached: ReadonlySet<number>;
}

/**
 * Pairs command output with its command: an output belongs to the last `session/command` before
 * it (the vocabulary's rule). An output whose command is outside the loaded window is left
 * unattached and drawn alone.
 */
export function commandRows(events: readonly WireEvent[]): CommandRows {
  const outputs = new Map<number, CommandOutputEvent[]>();
  const attached = new Set<number>();
  let command: CommandOutputEvent[] | undefined;
  for (const event of events) {
    const core = readCoreEvent(event);
    if (core?.type === 'session/command') {
      command = [];
      outputs.set(event.seq, command);
    } else if (core?.type === 'session/command-output' && command !== undefined) {
      command.push({ seq: event.seq, data: core.data });
      attached.add(event.seq);
    }
  }
  return { outputs, attached };
}
