import { turnRunning, withAttachments, type ExportDocument } from '@strand/export';
import { HostError, type ExportPort } from '@strand/host';
import { HarnessWriteError, writeHarnessExport } from '@strand/import/harness-export';

/** Each refusal of the shared writer as the host's wire code. */
const HOST_CODES = {
  'not-ours': 'HOST_EXPORT_TARGET_NOT_OURS',
  'not-continuable': 'HOST_EXPORT_NOT_CONTINUABLE',
  'write-failed': 'HOST_EXPORT_WRITE_FAILED',
} as const;

/**
 * The export port's `writeHarness` (`session.exportTo`): the writer `strand export --to` uses
 * (`@strand/import/harness-export`), placed by the host's own environment (`env`: its `HOME` and
 * the harness variables), never by anything from the wire, with the images the log references
 * read from the host's store. Its refusals become the host's codes.
 */
export function harnessWriter(
  env: Readonly<Record<string, string | undefined>>,
): NonNullable<ExportPort['writeHarness']> {
  return async (harness, document, readAttachment, subagents) => {
    try {
      // The images the log references go in with their bytes, as HTML's do.
      const exportDocument: ExportDocument = await withAttachments(document, readAttachment);
      const written = await writeHarnessExport(harness, exportDocument, { env }, subagents);
      return { ...written, running: turnRunning(exportDocument) };
    } catch (error) {
      if (error instanceof HarnessWriteError) throw new HostError(HOST_CODES[error.reason], error.message);
      throw error;
    }
  };
}
