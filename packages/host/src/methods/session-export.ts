import type { ExportFormatName } from '@strand/protocol';
import { SessionId } from '@strand/session';
import { HostError } from '../errors.js';
import type { HostServices } from '../services.js';

/**
 * `session.export`: the whole session at one exact observation — the durable cut, so nothing a
 * download holds can be taken back — rendered by the export port. The title is the `title`
 * unit's value at that cut. Never activates an agent.
 */
export async function sessionExport(
  services: HostServices,
  params: { id: string; format: ExportFormatName },
  signal: AbortSignal,
): Promise<{
  format: ExportFormatName;
  mediaType: string;
  fileName: string;
  text: string;
  lastSeq: number;
  running: boolean;
}> {
  const exporter = services.exporter;
  if (exporter === undefined)
    throw new HostError('HOST_EXPORT_UNAVAILABLE', 'this host was started without an exporter');
  const observation = await services.query.observeSession(SessionId(params.id), {
    projectionMode: 'all',
    signal,
  });
  try {
    const title = observation.projections?.values.title;
    const rendered = await exporter.render(
      params.format,
      {
        header: observation.header,
        events: observation.events,
        ...(typeof title === 'string' ? { title } : {}),
      },
      // Only refs this log references are asked for (the renderer reads them from its events); a
      // blob that is not stored is named in the file instead of failing the export.
      async (ref) => {
        try {
          const blob = await services.persistence.readAttachment(observation.header.id, ref, { signal });
          return { mediaType: blob.mediaType, base64: Buffer.from(blob.bytes).toString('base64') };
        } catch (error) {
          if ((error as { code?: unknown }).code === 'PERSISTENCE_ATTACHMENT_NOT_FOUND') return undefined;
          throw error;
        }
      },
    );
    return {
      format: params.format,
      mediaType: rendered.mediaType,
      fileName: rendered.fileName,
      text: rendered.text,
      lastSeq: observation.cursor - 1,
      running: rendered.running,
    };
  } finally {
    observation.dispose();
  }
}
