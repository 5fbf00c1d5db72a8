import type { ModelCatalogEntry, PresetCatalogEntry } from '@strand/protocol';
import { describe, expect, it } from 'vitest';
import { isStrandClientError } from '../errors.js';
import { ProjectionStore } from '../projection-store/projection-store.js';
import { catalogFailed, catalogLoaded, catalogLoading, catalogRefreshing } from './catalog-state.js';
import { selectModel } from './select-model.js';
import { selectPreset } from './select-preset.js';

const MODELS: readonly ModelCatalogEntry[] = [
  { provider: 'scripted', model: 'echo', label: 'Echo' },
  { provider: 'openai', model: 'gpt-x', label: 'GPT X', reasoningEfforts: ['low', 'high'] },
];
const PRESETS: readonly PresetCatalogEntry[] = [
  { name: 'coder', description: 'Writes code', allowedTools: ['read'] },
  { name: 'default', description: 'The deployment default', allowedTools: [] },
];

function storeWith(values: Record<string, unknown>): ProjectionStore {
  const store = new ProjectionStore();
  store.applyBaseline('s', { asOfSeq: 4, values });
  return store;
}

describe('selectModel', () => {
  it('is loading until the catalog is known', () => {
    const store = storeWith({ modelSelection: null });
    expect(selectModel(store, catalogLoading(), 's')).toEqual({ status: 'loading' });
  });

  it('is loading until the session projection is known, never a guessed default', () => {
    expect(selectModel(new ProjectionStore(), catalogLoaded(MODELS), 's')).toEqual({ status: 'loading' });
  });

  it('shows the pending selection over the last request, both resolved against the catalog', () => {
    const store = storeWith({
      modelSelection: {
        lastRequest: { provider: 'scripted', model: 'echo' },
        pending: { provider: 'openai', model: 'gpt-x', reasoningEffort: 'high' },
      },
    });
    expect(selectModel(store, catalogLoaded(MODELS), 's')).toEqual({
      status: 'ready',
      current: {
        kind: 'known',
        route: { provider: 'openai', model: 'gpt-x', reasoningEffort: 'high' },
        entry: MODELS[1],
      },
      isPending: true,
      lastRequest: { kind: 'known', route: { provider: 'scripted', model: 'echo' }, entry: MODELS[0] },
    });
  });

  it("shows the last request's route when nothing is pending", () => {
    const store = storeWith({
      modelSelection: { lastRequest: { provider: 'scripted', model: 'echo' }, pending: null },
    });
    expect(selectModel(store, catalogLoaded(MODELS), 's')).toMatchObject({
      status: 'ready',
      current: { kind: 'known', entry: MODELS[0] },
      isPending: false,
    });
  });

  it('shows a model the catalog lacks as unknown', () => {
    const store = storeWith({
      modelSelection: { lastRequest: { provider: 'gone', model: 'old' }, pending: null },
    });
    expect(selectModel(store, catalogLoaded(MODELS), 's')).toMatchObject({
      status: 'ready',
      current: { kind: 'unknown', route: { provider: 'gone', model: 'old' } },
    });
  });

  it('an explicit null selection is ready with no route, not a default model', () => {
    const store = storeWith({ modelSelection: null });
    expect(selectModel(store, catalogLoaded(MODELS), 's')).toEqual({
      status: 'ready',
      current: null,
      isPending: false,
      lastRequest: null,
    });
  });

  it('keeps showing the previous catalog during a refresh and after a failed refresh', () => {
    const store = storeWith({
      modelSelection: { lastRequest: { provider: 'scripted', model: 'echo' }, pending: null },
    });
    const refreshing = catalogRefreshing(catalogLoaded(MODELS));
    expect(selectModel(store, refreshing, 's')).toMatchObject({
      status: 'ready',
      current: { kind: 'known' },
    });
    expect(selectModel(store, catalogFailed(refreshing, 'down'), 's')).toMatchObject({ status: 'ready' });
  });

  it('is an error when the catalog failed with no previous value, even before the projection is known', () => {
    expect(selectModel(new ProjectionStore(), catalogFailed(catalogLoading(), 'down'), 's')).toEqual({
      status: 'error',
      error: 'down',
    });
  });

  it('is an error, not a wrong label, when the projection value is malformed', () => {
    const store = storeWith({ modelSelection: { lastRequest: 'echo', pending: null } });
    const display = selectModel(store, catalogLoaded(MODELS), 's');
    expect(display.status).toBe('error');
    expect(
      display.status === 'error' && isStrandClientError(display.error, 'CLIENT_PROJECTION_INVALID'),
    ).toBe(true);
  });

  it('becomes ready once the baseline arrives after list hints lacked the key', () => {
    const store = new ProjectionStore();
    store.applyHints('s', { asOfSeq: 2, values: { title: 't' } });
    expect(selectModel(store, catalogLoaded(MODELS), 's')).toEqual({ status: 'loading' });
    store.applyBaseline('s', { asOfSeq: 3, values: { title: 't', modelSelection: null } });
    expect(selectModel(store, catalogLoaded(MODELS), 's').status).toBe('ready');
  });
});

describe('selectPreset', () => {
  it('is loading until both the roster and the projection are known', () => {
    expect(selectPreset(storeWith({ agentPreset: 'coder' }), catalogLoading(), 's')).toEqual({
      status: 'loading',
    });
    expect(selectPreset(new ProjectionStore(), catalogLoaded(PRESETS), 's')).toEqual({ status: 'loading' });
  });

  it('resolves the session preset against the roster', () => {
    expect(selectPreset(storeWith({ agentPreset: 'coder' }), catalogLoaded(PRESETS), 's')).toEqual({
      status: 'ready',
      preset: { kind: 'known', entry: PRESETS[0] },
    });
  });

  it('a null preset stays null: never replaced by the deployment default', () => {
    expect(selectPreset(storeWith({ agentPreset: null }), catalogLoaded(PRESETS), 's')).toEqual({
      status: 'ready',
      preset: null,
    });
  });

  it('a preset the roster lacks is shown as unknown', () => {
    expect(selectPreset(storeWith({ agentPreset: 'retired' }), catalogLoaded(PRESETS), 's')).toEqual({
      status: 'ready',
      preset: { kind: 'unknown', name: 'retired' },
    });
  });

  it('is an error when the roster failed with no previous value; a failed refresh keeps the old roster', () => {
    const store = storeWith({ agentPreset: 'coder' });
    expect(selectPreset(store, catalogFailed(catalogLoading(), 'down'), 's')).toEqual({
      status: 'error',
      error: 'down',
    });
    expect(selectPreset(store, catalogFailed(catalogLoaded(PRESETS), 'down'), 's')).toMatchObject({
      status: 'ready',
      preset: { kind: 'known' },
    });
  });

  it('a malformed value is an error', () => {
    expect(selectPreset(storeWith({ agentPreset: 7 }), catalogLoaded(PRESETS), 's').status).toBe('error');
  });
});
