import { Badge } from '@mantine/core';

/**
 * Marks a fork (`header.forkedFrom`): it inherits its parent's events, title included, so without
 * this mark a fork reads as its parent under the same title.
 */
export function ForkBadge({ parent }: { parent: string }): React.JSX.Element {
  return (
    <Badge size="xs" variant="outline" color="grape" data-testid="fork-badge" title={`forked from ${parent}`}>
      fork
    </Badge>
  );
}
