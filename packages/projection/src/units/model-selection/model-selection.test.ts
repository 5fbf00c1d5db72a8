import { describe, expect, it } from 'vitest';
import { foldView, log } from '../../testing/events.js';
import { describeUnitLaws } from '../../testing/unit-laws.js';
import { MODEL_SELECTION_READS, modelSelectionUnit } from './model-selection.js';
import { UNSEEDED } from '../../types.js';

const a = { provider: 'openai', model: 'a' };
const b = { provider: 'local', model: 'b', reasoningEffort: 'high' };

describe('modelSelection unit', () => {
  it('is null when the log records neither a request nor a selection', () => {
    expect(foldView(modelSelectionUnit, log(['turn/start', {}]))).toBeNull();
  });

  it('holds a selection as pending until a request consumes it', () => {
    expect(foldView(modelSelectionUnit, log(['model/selection', b]))).toEqual({
      lastRequest: null,
      pending: b,
    });
    expect(foldView(modelSelectionUnit, log(['model/selection', b], ['request/header', b]))).toEqual({
      lastRequest: b,
      pending: null,
    });
  });

  it('distinguishes the last request route from a later selection not yet used', () => {
    const view = foldView(modelSelectionUnit, log(['request/header', a], ['model/selection', b]));
    expect(view).toEqual({ lastRequest: a, pending: b });
  });

  it('records the route a request actually used even when it differs from the selection', () => {
    expect(foldView(modelSelectionUnit, log(['model/selection', b], ['request/header', a]))).toEqual({
      lastRequest: a,
      pending: null,
    });
  });

  it('folds a corrupt route to null in its slot and copies only route fields', () => {
    expect(
      foldView(modelSelectionUnit, log(['request/header', a], ['model/selection', { provider: 1 }])),
    ).toEqual({
      lastRequest: a,
      pending: null,
    });
    expect(foldView(modelSelectionUnit, log(['request/header', { ...a, extra: true }]))).toEqual({
      lastRequest: a,
      pending: null,
    });
  });

  it('keeps a selection made during a turn pending through that turn; the next turn consumes it', () => {
    const during = log(
      ['turn/start', {}],
      ['request/header', a],
      ['model/selection', b],
      ['request/header', a],
    );
    expect(foldView(modelSelectionUnit, during)).toEqual({ lastRequest: a, pending: b });
    const turnEnd = ['turn/end', { reason: 'completed' }] as const;
    const ended = log(
      ['turn/start', {}],
      ['request/header', a],
      ['model/selection', b],
      ['request/header', a],
      turnEnd,
    );
    expect(foldView(modelSelectionUnit, ended)).toEqual({ lastRequest: a, pending: b });
    const next = log(
      ['turn/start', {}],
      ['request/header', a],
      ['model/selection', b],
      ['request/header', a],
      turnEnd,
      ['turn/start', {}],
      ['request/header', b],
    );
    expect(foldView(modelSelectionUnit, next)).toEqual({ lastRequest: b, pending: null });
  });

  it('a selection made before a turn starts is consumed by that turn, not held', () => {
    const view = foldView(
      modelSelectionUnit,
      log(
        ['turn/start', {}],
        ['request/header', a],
        ['turn/end', { reason: 'completed' }],
        ['model/selection', b],
        ['turn/start', {}],
        ['request/header', b],
      ),
    );
    expect(view).toEqual({ lastRequest: b, pending: null });
  });

  it('returns the same state for a repeated identical selection', () => {
    const [first, second] = log(['model/selection', b], ['model/selection', { ...b }]);
    const state = modelSelectionUnit.apply(modelSelectionUnit.init({} as never, UNSEEDED), first!);
    expect(modelSelectionUnit.apply(state, second!)).toBe(state);
  });
});

// `turn/start` and `turn/end` change the state too (read by type only, not in dataReads).
describeUnitLaws(modelSelectionUnit, [...MODEL_SELECTION_READS, 'turn/start', 'turn/end']);
