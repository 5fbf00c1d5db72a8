import { useProjection } from '../shared/use-projection.js';
import { followLink } from '../shared/routing/navigation.js';
import { sessionHref } from '../shared/routing/routes.js';
import { descriptorRole, IDENTITY_KEY, parentName, roleText } from './descriptor-line.js';
import './identity.css';

/**
 * A child's `subagent/descriptor` as its identity line: "subagent of <parent> · <role>". The
 * parent is the header's `parentSession` (a link to it, named by its title when the store has
 * one); the role comes from the `subagent` identity projection (`descriptor-line.ts`).
 */
export function IdentityLine({
  sessionId,
  seq,
  parentSession,
}: {
  sessionId: string;
  seq: number;
  /** The header's `parentSession` of a subagent child; undefined for any other session. */
  parentSession: string | undefined;
}): React.JSX.Element {
  const role = roleText(descriptorRole(seq, useProjection(sessionId, IDENTITY_KEY)));
  return (
    <span className="strand-identity" data-testid="identity-line">
      subagent
      {parentSession !== undefined && (
        <>
          {' of '}
          <ParentLink id={parentSession} />
        </>
      )}
      {role !== undefined && (
        <>
          {' · '}
          <span data-testid="identity-role">{role}</span>
        </>
      )}
    </span>
  );
}

function ParentLink({ id }: { id: string }): React.JSX.Element {
  const name = parentName(id, useProjection(id, 'title'));
  return (
    <a
      href={sessionHref(id)}
      // One Tab stop for the transcript: Enter on the row opens its first link (keyboard.ts).
      tabIndex={-1}
      title={`Open the parent session ${id}`}
      onClick={(click) => followLink(click, { kind: 'session', id })}
      data-testid="identity-parent"
    >
      {name}
    </a>
  );
}
