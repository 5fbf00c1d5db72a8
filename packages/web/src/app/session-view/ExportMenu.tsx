import { Button, Menu, Text } from '@mantine/core';
import { useState } from 'react';
import { EXPORT_FORMATS, type ExportFormatName } from '@strand/protocol';
import { describeError } from '../shared/format.js';
import { useStrand } from '../shared/hooks.js';

/** What each format is for, as the menu says it. */
const FORMAT_LABELS: Readonly<Record<ExportFormatName, string>> = {
  markdown: 'Markdown — to read or paste',
  html: 'HTML — one page, opens anywhere',
  json: "JSON — Strand's own, complete",
};

/**
 * "Export" on the session view: the session at its durable cut (`session.export`) downloaded as
 * a file the browser saves under the host's name for it. A running session downloads what was
 * durable, and the view says so; a failure is one line, nothing saved.
 */
export function ExportMenu({ sessionId }: { sessionId: string }): React.JSX.Element {
  const { connection } = useStrand();
  const [busy, setBusy] = useState<ExportFormatName | null>(null);
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);

  const download = async (format: ExportFormatName): Promise<void> => {
    setBusy(format);
    setNote(null);
    try {
      const exported = await connection.call('session.export', { id: sessionId, format });
      const url = URL.createObjectURL(new Blob([exported.text], { type: exported.mediaType }));
      const anchor = document.createElement('a');
      anchor.href = url;
      anchor.download = exported.fileName;
      anchor.click();
      // The download has its own copy once started; the object URL is not needed after this turn.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      if (exported.running)
        setNote({
          text: `A turn is still running: ${exported.fileName} holds events 0–${exported.lastSeq}, what was saved.`,
          error: false,
        });
    } catch (error) {
      setNote({ text: `Export failed: ${describeError(error)}`, error: true });
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="compact-xs" variant="light" loading={busy !== null} data-testid="export-menu">
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {EXPORT_FORMATS.map((format) => (
            <Menu.Item key={format} onClick={() => void download(format)} data-testid={`export-${format}`}>
              {FORMAT_LABELS[format]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      {note !== null && (
        <Text size="xs" c={note.error ? 'red' : 'dimmed'} data-testid="export-note" role="status">
          {note.text}
        </Text>
      )}
    </>
  );
}
