import { useEffect, useState } from 'react';
import { Group, Loader, Text } from '@mantine/core';
import { useStrand } from '../shared/hooks.js';
import { describeError } from '../shared/format.js';

/** An image block, read through `session.attachment` once per Strand (its bounded `images` cache). */
export function AttachmentImage({
  sessionId,
  attachmentRef,
}: {
  sessionId: string;
  attachmentRef: string;
}): React.JSX.Element {
  const { connection, images } = useStrand();
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const key = `${sessionId}\n${attachmentRef}`;
    const pending = images.get(key, () =>
      connection.call('session.attachment', { id: sessionId, ref: attachmentRef }).then((blob) => {
        if (!blob.mediaType.startsWith('image/')) throw new Error(`not an image (${blob.mediaType})`);
        return `data:${blob.mediaType};base64,${blob.base64}`;
      }),
    );
    let alive = true;
    pending.then(
      (url) => alive && setSrc(url),
      (failure: unknown) => alive && setError(describeError(failure)),
    );
    return () => {
      alive = false;
    };
  }, [connection, images, sessionId, attachmentRef]);
  if (error !== null)
    return (
      <Text size="xs" c="red" data-testid="attachment-error">
        image {attachmentRef}: {error}
      </Text>
    );
  if (src === null)
    return (
      <Group gap={4} data-testid="attachment-loading">
        <Loader size="xs" /> <Text size="xs">image…</Text>
      </Group>
    );
  return (
    <img
      className="strand-image"
      data-testid="attachment-image"
      src={src}
      alt={`attachment ${attachmentRef}`}
    />
  );
}
