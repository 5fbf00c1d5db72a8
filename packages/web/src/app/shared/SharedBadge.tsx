import { Badge } from '@mantine/core';
import type { SharedGrant } from './access.js';
import { formatTime } from './format.js';

/** What a shared page's reader is told of their access: read-only, and until when. */
export function sharedBadgeText(grant: SharedGrant, formatAt: (ms: number) => string = formatTime): string {
  return grant.expiresAt === null
    ? 'Shared · read-only'
    : `Shared · read-only · until ${formatAt(Date.parse(grant.expiresAt))}`;
}

export function SharedBadge({ grant }: { grant: SharedGrant }): React.JSX.Element {
  return (
    <Badge
      variant="outline"
      data-testid="share-badge"
      title="A share link: you can read this session as it runs, not prompt or change it"
      style={{ textTransform: 'none' }}
    >
      {sharedBadgeText(grant)}
    </Badge>
  );
}
