import { describe, expect, it } from 'vitest';
import type { HostServices } from '../services.js';
import { sessionExport, sessionExportTo } from './session-export.js';

describe('session.export', () => {
  it('is HOST_EXPORT_UNAVAILABLE on a host given no exporter, before reading anything', async () => {
    const reads: string[] = [];
    const services = {
      query: {
        observeSession: (id: string) => {
          reads.push(id);
          return Promise.reject(new Error('must not read'));
        },
      },
    } as unknown as HostServices;
    await expect(
      sessionExport(services, { id: 's1', format: 'markdown' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'HOST_EXPORT_UNAVAILABLE' });
    expect(reads).toEqual([]);
  });

  it('session.exportTo is HOST_EXPORT_UNAVAILABLE on a host whose exporter writes no harness, before reading', async () => {
    const reads: string[] = [];
    const services = {
      exporter: { render: () => Promise.reject(new Error('must not render')) },
      query: {
        observeSession: (id: string) => {
          reads.push(id);
          return Promise.reject(new Error('must not read'));
        },
      },
    } as unknown as HostServices;
    await expect(
      sessionExportTo(services, { id: 's1', harness: 'codex' }, new AbortController().signal),
    ).rejects.toMatchObject({ code: 'HOST_EXPORT_UNAVAILABLE' });
    expect(reads).toEqual([]);
  });
});
