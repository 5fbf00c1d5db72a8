import { AgentError } from '../errors.js';
import type { ToolSpec } from '../model/model.js';
import type { Tool } from './tool.js';

/** The tools one controller offers its agents; names are unique. Built once, then read-only. */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();
  /** Registered tools `only` left out: a call to one is refused as not allowed, not as unknown. */
  readonly #withheld: ReadonlySet<string>;

  constructor(tools: readonly Tool[] = [], withheld: Iterable<string> = []) {
    for (const tool of tools) this.#add(tool);
    this.#withheld = new Set(withheld);
  }

  /** A new registry with `tools` added (the receiver is unchanged). */
  with(...tools: readonly Tool[]): ToolRegistry {
    return new ToolRegistry([...this.#tools.values(), ...tools], this.#withheld);
  }

  /**
   * A new registry with only the named tools that are registered here (a preset's allowed tools).
   * The others are withheld: not offered to the model, and `isWithheld` tells a call to one of
   * them (a model that ignores its tool list) from a call to a tool that does not exist.
   */
  only(names: readonly string[]): ToolRegistry {
    const kept: Tool[] = [];
    const withheld = new Set(this.#withheld);
    for (const tool of this.#tools.values()) {
      if (names.includes(tool.name)) kept.push(tool);
      else withheld.add(tool.name);
    }
    return new ToolRegistry(kept, withheld);
  }

  /** The tool is registered but this registry's preset bound does not allow it. */
  isWithheld(name: string): boolean {
    return this.#withheld.has(name);
  }

  get(name: string): Tool | undefined {
    return this.#tools.get(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  /** What the model is told, in registration order. */
  specs(): ToolSpec[] {
    return [...this.#tools.values()].map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
  }

  #add(tool: Tool): void {
    if (!/^[A-Za-z_][\w-]{0,63}$/.test(tool.name))
      throw new AgentError('AGENT_CONFIG_INVALID', `invalid tool name ${JSON.stringify(tool.name)}`);
    if (this.#tools.has(tool.name))
      throw new AgentError('AGENT_CONFIG_INVALID', `tool ${tool.name} is registered twice`);
    this.#tools.set(tool.name, tool);
  }
}
