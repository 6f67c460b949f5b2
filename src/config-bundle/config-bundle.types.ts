/**
 * One tenant's configuration as a file: every resource keyed by its name (a mapping by its phone
 * number), references between them by name, nothing the server makes (ids, timestamps, published
 * versions' snapshots), secrets by name only.
 */
export type BundleResource = Record<string, unknown>;

/** The resource types of a bundle, in the order they are created (references point backwards). */
export const BUNDLE_TYPES = ['tools', 'strategies', 'assistants', 'inbound'] as const;
export type BundleType = (typeof BUNDLE_TYPES)[number];

export interface ConfigBundle {
  assistants: Record<string, BundleResource>;
  tools: Record<string, BundleResource>;
  strategies: Record<string, BundleResource>;
  inbound: Record<string, BundleResource>;
  /** The names of the caller's secrets; values never leave the service. */
  secrets: string[];
}

export interface ExportedBundle extends ConfigBundle {
  /** Opaque; changes with every configuration change of the caller. */
  revision: string;
}
