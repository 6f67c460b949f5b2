import { getMetadataArgsStorage } from 'typeorm';

/**
 * The table an entity class is stored in, as its `@Entity(name)` says. An owning module exports
 * its tables' names through this (e.g. `AssistantRepository.TABLE`), so another module that
 * watches them for writes names no table itself: a renamed table follows, a removed export breaks
 * the build.
 */
export function tableNameOf(target: abstract new (...args: never[]) => unknown): string {
  const name = getMetadataArgsStorage().tables.find((table) => table.target === target)?.name;
  if (!name) throw new Error(`${target.name} has no @Entity(name)`);
  return name;
}
