import { useState } from 'react';
import { Button, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { describeError } from '../shared/format.js';
import { useCatalog, useStrand } from '../shared/hooks.js';

/** "New session": model and preset are picked before the session exists (`session.create`). */
export function NewSession({ onCreated }: { onCreated: (id: string) => void }): React.JSX.Element {
  const strand = useStrand();
  const models = useCatalog(strand.models);
  const presets = useCatalog(strand.presets);
  const [opened, setOpened] = useState(false);
  const [model, setModel] = useState<string | null>(null);
  const [preset, setPreset] = useState<string | null>(null);
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const modelEntries = models.last?.value ?? [];
  const presetEntries = presets.last?.value ?? [];
  const key = (provider: string, name: string): string => `${provider}/${name}`;

  const create = (): void => {
    const entry = modelEntries.find((candidate) => key(candidate.provider, candidate.model) === model);
    setCreating(true);
    strand.connection
      .call('session.create', {
        ...(entry === undefined ? {} : { model: { provider: entry.provider, model: entry.model } }),
        ...(preset === null ? {} : { preset }),
        ...(prompt.trim() === '' ? {} : { prompt: prompt.trim() }),
      })
      .then(
        ({ id }) => {
          setCreating(false);
          setOpened(false);
          setPrompt('');
          setError(null);
          onCreated(id);
        },
        (failure: unknown) => {
          setCreating(false);
          setError(describeError(failure));
        },
      );
  };

  return (
    <>
      <Button size="xs" onClick={() => setOpened(true)} data-testid="new-session">
        New session
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="New session">
        <Stack gap="sm">
          {models.last === null ? (
            <Text size="sm">Model: loading…</Text>
          ) : (
            <Select
              label="Model"
              placeholder="host default"
              data={modelEntries.map((entry) => ({
                value: key(entry.provider, entry.model),
                label: entry.label,
              }))}
              value={model}
              onChange={setModel}
              clearable
            />
          )}
          {presets.last === null ? (
            <Text size="sm">Agent preset: loading…</Text>
          ) : (
            <Select
              label="Agent preset"
              placeholder="host default"
              data={presetEntries.map((entry) => ({
                value: entry.name,
                label: `${entry.name} — ${entry.description}`,
              }))}
              value={preset}
              onChange={setPreset}
              clearable
            />
          )}
          <Textarea
            label="First prompt (optional)"
            value={prompt}
            onChange={(event) => setPrompt(event.currentTarget.value)}
            autosize
            minRows={2}
          />
          {error !== null && (
            <Text size="sm" c="red">
              {error}
            </Text>
          )}
          <Button
            onClick={create}
            loading={creating}
            disabled={models.last === null || presets.last === null}
            data-testid="create-session"
          >
            Create
          </Button>
        </Stack>
      </Modal>
    </>
  );
}
