import { normalizePhoneNumber } from '../common/validation/phone-number';
import type { NameResolver } from './bundle-input';
import type { CallerConfig } from './to-bundle';

type Named = 'tools' | 'strategies' | 'assistants';

/**
 * The ids a bundle's names stand for while it is applied: the caller's resources as read at the
 * plan's revision, and each resource as its create makes it.
 */
export class AppliedIds implements NameResolver {
  private readonly ids: Record<Named, Map<string, string>>;
  /** Mappings by their number's digits. */
  private readonly mappings: Map<string, string>;
  /** The tools attached to each assistant, by assistant id. */
  readonly attached: Map<string, string[]>;

  constructor(config: CallerConfig) {
    this.ids = {
      tools: new Map(config.tools.map((tool) => [tool.tool_name, tool.tool_id])),
      strategies: new Map(config.strategies.map((s) => [s.strategy_name, s.strategy_id])),
      assistants: new Map(config.assistants.map((a) => [a.assistant_name, a.assistant_id])),
    };
    this.mappings = new Map(config.inbound.map((m) => [m.phone_number_normalized, m.inbound_id]));
    this.attached = new Map(config.assistants.map((a) => [a.assistant_id, a.tool_ids]));
  }

  idOf(type: Named, name: string): string | undefined {
    return this.ids[type].get(name);
  }

  /** The id of a resource that exists (the plan named it): a missing one is a bug, not input. */
  existing(type: Named | 'inbound', name: string): string {
    const id =
      type === 'inbound' ? this.mappings.get(normalizePhoneNumber(name)) : this.ids[type].get(name);
    if (!id) throw new Error(`${type} "${name}" has no id while the bundle is applied`);
    return id;
  }

  created(type: Named, name: string, id: string): void {
    this.ids[type].set(name, id);
  }
}
