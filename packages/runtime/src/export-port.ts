import type { ExportPort } from '@strand/host';

/**
 * The host's export port, its modules loaded on the first export rather than at start-up: the
 * renderers pull in Markdown and highlight.js (two dozen language modules registered at load) and
 * the harness writers, which every other command — `strand list` above all — would pay for at
 * start (about 50 ms of compile, registration and GC per process, measured by `bench:cli`).
 * `env` places `session.exportTo`'s files (see `harnessWriter`).
 */
export function exportPort(env: Readonly<Record<string, string | undefined>>): ExportPort {
  let writer: Promise<NonNullable<ExportPort['writeHarness']>> | undefined;
  return {
    render: async (format, document, readAttachment) =>
      (await import('@strand/export')).renderExport(format, document, readAttachment),
    writeHarness: async (...args) => {
      writer ??= import('./harness-writer.js').then(({ harnessWriter }) => harnessWriter(env));
      return (await writer)(...args);
    },
  };
}
