import { isDirectChildRow, type ExportFormatName, type ExportHarnessName } from '@strand/protocol';
import type { SessionObservation } from '@strand/query';
import { SessionId } from '@strand/session';
import { HostError } from '../errors.js';
import type { ExportAttachmentReader, ExportedSession } from '../ports.js';
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
  return atDurableCut(services, params.id, signal, async (document, observation) => {
    const rendered = await exporter.render(
      params.format,
      document,
      attachmentReader(services, observation, signal),
    );
    return {
      format: params.format,
      mediaType: rendered.mediaType,
      fileName: rendered.fileName,
      text: rendered.text,
      lastSeq: observation.cursor - 1,
      running: rendered.running,
    };
  });
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
  children: string[];
  leftOut: string[];
  lastSeq: number;
  running: boolean;
}> {
  const exporter = services.exporter;
  const writeHarness = exporter?.writeHarness?.bind(exporter);
  if (writeHarness === undefined)
    throw new HostError('HOST_EXPORT_UNAVAILABLE', 'this host was started without a harness writer');
  return atDurableCut(services, params.id, signal, async (document, observation) => {
    const written = await withSubagents(services, params.id, signal, (subagents) =>
      writeHarness(params.harness, document, attachmentReader(services, observation, signal), subagents),
    );
    return {
      path: written.path,
      resumeId: written.resumeId,
      command: written.command,
      children: [...written.children],
      leftOut: [...written.leftOut],
      lastSeq: observation.cursor - 1,
      running: written.running,
    };
  });
}

/**
 * The bytes of an image the session's log references, for the formats that carry images. Only
 * refs the log references are asked for (the writers read them from its events); a blob that is
 * not stored is named in the file instead of failing the export.
 */
function attachmentReader(
  services: HostServices,
  observation: SessionObservation,
  signal: AbortSignal,
): ExportAttachmentReader {
  return async (ref) => {
    try {
      const blob = await services.persistence.readAttachment(observation.header.id, ref, { signal });
      return { mediaType: blob.mediaType, base64: Buffer.from(blob.bytes).toString('base64') };
    } catch (error) {
      if ((error as { code?: unknown }).code === 'PERSISTENCE_ATTACHMENT_NOT_FOUND') return undefined;
      throw error;
    }
  };
}

/**
 * The session's subagent tree as the harness writer takes it (`subagent.list`'s descendants):
 * each direct child read at its own durable cut, held until `use` is done; the deeper ones, and
 * any the listing could not read, by id. A host without a subagent catalog has none to give.
 */
async function withSubagents<T>(
  services: HostServices,
  id: string,
  signal: AbortSignal,
  use: (subagents: { children: ExportedSession[]; others: string[] }) => Promise<T>,
): Promise<T> {
  const rows =
    services.subagents === undefined
      ? []
      : await services.subagents.list(SessionId(id), 'descendants', signal);
  const observations: SessionObservation[] = [];
  try {
    const children: ExportedSession[] = [];
    const others: string[] = [];
    for (const row of rows) {
      if (!isDirectChildRow(row)) {
        others.push(row.id);
        continue;
      }
      const observation = await services.query.observeSession(SessionId(row.id), {
        projectionMode: 'all',
        signal,
      });
      observations.push(observation);
      children.push(documentOf(observation));
    }
    return await use({ children, others });
  } finally {
    for (const observation of observations) observation.dispose();
  }
}

/**
 * The session as both exports read it: one exact observation (the durable cut), its whole log
 * and the `title` unit's value there, handed to `use` and disposed after it.
 */
async function atDurableCut<T>(
  services: HostServices,
  id: string,
  signal: AbortSignal,
  use: (document: ExportedSession, observation: SessionObservation) => Promise<T>,
): Promise<T> {
  const observation = await services.query.observeSession(SessionId(id), { projectionMode: 'all', signal });
  try {
    return await use(documentOf(observation), observation);
  } finally {
    observation.dispose();
  }
}

/** An observation as an export reads it: its header, its whole log, the `title` unit's value. */
function documentOf(observation: SessionObservation): ExportedSession {
  const title = observation.projections?.values.title;
  return {
    header: observation.header,
    events: observation.events,
    ...(typeof title === 'string' ? { title } : {}),
  };
}
