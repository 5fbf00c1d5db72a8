import { AgentError } from '../errors.js';
import type { ToolSpec } from '../model/model.js';
import type { Tool } from './tool.js';

/** The tools one controller offers its agents; names are unique. Built once, then read-only. */
export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[] = []) {
    for (const tool of tools) this.#add(tool);
  }

  /** A new registry with `tools` added (the receiver is unchanged). */
  with(...tools: readonly Tool[]): ToolRegistry {
    return new ToolRegistry([...this.#tools.values(), ...tools]);
  }

  /** A new registry with only the named tools that are registered here (a preset's allowed tools). */
  only(names: readonly string[]): ToolRegistry {
    return new ToolRegistry([...this.#tools.values()].filter((tool) => names.includes(tool.name)));
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
