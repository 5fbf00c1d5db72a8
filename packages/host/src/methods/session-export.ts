import type { ExportFormatName, ExportHarnessName } from '@strand/protocol';
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

/**
 * `session.exportTo`: the session at the same durable cut as `session.export`, written by the
 * export port as `harness`'s own transcript into the host's folder for it. The port decides the
 * place from the host's environment only; nothing on the wire names a path.
 */
export async function sessionExportTo(
  services: HostServices,
  params: { id: string; harness: ExportHarnessName },
  signal: AbortSignal,
): Promise<{
  path: string;
  resumeId: string;
  command: string;
  leftOut: string[];
  lastSeq: number;
  running: boolean;
}> {
  const exporter = services.exporter;
  if (exporter?.writeHarness === undefined)
    throw new HostError('HOST_EXPORT_UNAVAILABLE', 'this host was started without a harness writer');
  const observation = await services.query.observeSession(SessionId(params.id), {
    projectionMode: 'all',
    signal,
  });
  try {
    const title = observation.projections?.values.title;
    const written = await exporter.writeHarness(params.harness, {
      header: observation.header,
      events: observation.events,
      ...(typeof title === 'string' ? { title } : {}),
    });
    return {
      path: written.path,
      resumeId: written.resumeId,
      command: written.command,
      leftOut: [...written.leftOut],
      lastSeq: observation.cursor - 1,
      running: written.running,
    };
  } finally {
    observation.dispose();
  }
}
