import type { ChildTurn } from '../subagent-control.js';
import type { ToolOutput } from './tool.js';

/**
 * What the parent's model reads about a child's turn: a header line, then the child's answer. A
 * turn that did not complete is an error result carrying the child's code, so the model cannot
 * mistake a failed delegation for an answer.
 */
export function renderChildTurn(headline: string, turn: ChildTurn): ToolOutput {
  const ending =
    turn.reason === 'completed'
      ? 'completed'
      : `${turn.reason}${turn.error === undefined ? '' : ` (${turn.error.code}: ${turn.error.message})`}`;
  const answer = turn.text.length === 0 ? '(no answer)' : turn.text;
  const content = `${headline}\nIts turn ended: ${ending}.\n\n${answer}`;
  if (turn.reason === 'completed') return { content };
  return { content, isError: true, code: turn.error?.code ?? 'AGENT_CANCELLED' };
}
