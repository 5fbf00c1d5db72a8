import { describe, expect, it } from 'vitest';
import type { HostServices } from '../services.js';
import { sessionExport, sessionExportTo } from './session-export.js';

/** Services whose query records every read and fails it, with the exporter given (or none). */
function recordingReads(exporter?: Partial<NonNullable<HostServices['exporter']>>): {
  services: HostServices;
  reads: string[];
} {
  const reads: string[] = [];
  const query = {
    observeSession: (id: string) => {
      reads.push(id);
      return Promise.reject(new Error('must not read'));
    },
  };
  return {
    services: { query, ...(exporter === undefined ? {} : { exporter }) } as unknown as HostServices,
    reads,
  };
}

describe('session.export', () => {
  it('is HOST_EXPORT_UNAVAILABLE on a host given no exporter, before reading anything', async () => {
    const { services, reads } = recordingReads();
    await expect(
      sessionExport(services, { id: 's1', format: 'markdown' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'HOST_EXPORT_UNAVAILABLE' });
    expect(reads).toEqual([]);
  });

  it('session.exportTo is HOST_EXPORT_UNAVAILABLE on a host whose exporter writes no harness, before reading', async () => {
    const { services, reads } = recordingReads({
      render: () => Promise.reject(new Error('must not render')),
    });
    await expect(
      sessionExportTo(services, { id: 's1', harness: 'codex' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'HOST_EXPORT_UNAVAILABLE' });
    expect(reads).toEqual([]);
  });
});
