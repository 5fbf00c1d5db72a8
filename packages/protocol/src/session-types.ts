/**
 * Session data as it crosses the wire. Structural copies of the `session` package's types, so
 * browsers never import Node-bound packages; `host` checks assignability at compile time.
 */
export type WireJson =
  | null
  | boolean
  | number
  | string
  | readonly WireJson[]
  | { readonly [key: string]: WireJson };

export interface WireSessionHeader {
  readonly version: number;
  readonly id: string;
  readonly createdAt: number;
  readonly cwd?: string;
  readonly parentSession?: string;
  readonly origin?: 'subagent';
  readonly delegationDepth?: number;
  readonly agentPreset?: string | null;
  readonly forkedFrom?: string;
  /** A session imported from another harness (read-only in Strand). */
  readonly source?: { readonly harness: 'claude-code' | 'codex' | 'gemini'; readonly sourceId: string };
  readonly isSeeded: boolean;
}

export interface WireEvent {
  readonly type: string;
  readonly seq: number;
  readonly time: number;
  readonly data: WireJson;
}

/** Client values by projection key. */
export type ProjectionValueMap = { readonly [key: string]: unknown };

/** Partial, possibly stale values: a missing key means "unknown". */
export interface ProjectionHints {
  readonly asOfSeq: number;
  readonly values: ProjectionValueMap;
}

/** Complete for this host at `asOfSeq`: a missing key means "capability absent". */
export interface ProjectionBaseline {
  readonly asOfSeq: number;
  readonly values: ProjectionValueMap;
}

// The client views of the built-in units are the projection package's own types (it is
// browser-safe); re-exported so clients import only this package.
export type {
  TitleView as TitleValue,
  ListMetadataView as ListMetadataValue,
  ModelRoute as ModelRouteValue,
  ModelSelectionView as ModelSelectionValue,
  AgentPresetView as AgentPresetValue,
  UsageView as UsageValue,
} from '@strand/projection';

/** The client view of `subagentTiming`: settled active time plus the open turn, if any. */
export interface SubagentTimingValue {
  readonly settledMs: number;
  readonly settledTurns: number;
  readonly active: { readonly since: number; readonly through: number } | null;
}

export type SubagentIdentityValue =
  | { readonly mode: 'one-shot'; readonly label?: string; readonly seq: number }
  | { readonly mode: 'continuable'; readonly label: string; readonly seq: number }
  | null;

/**
 * A row of a subagent listing (the subagent listing contract's `SubagentListEntry`), generic in the id type so the
 * subagent domain uses this one shape with its branded `SessionId` and the wire with `string`.
 * A `child` row carries the descriptor's strong mode/label contract and no `seq`; `unsupported`
 * stays in the type but is never produced.
 */
export type SubagentListEntryOf<Id extends string> =
  | ({
      readonly kind: 'child';
      readonly id: Id;
      readonly activity: 'running' | 'inactive';
      readonly hasChildren: boolean;
    } & (
      | { readonly mode: 'one-shot'; readonly label?: string }
      | { readonly mode: 'continuable'; readonly label: string }
    ))
  | {
      readonly kind: 'diagnostic';
      readonly id: Id;
      readonly reason: 'corrupt' | 'unsupported' | 'unavailable';
    };

/** A row of `subagent.list` on the wire. */
export type SubagentListEntry = SubagentListEntryOf<string>;

/** A descendant row adds where it hangs in the tree. */
export type SubagentTreeEntry = SubagentListEntry & { readonly parentId: string; readonly depth: number };
