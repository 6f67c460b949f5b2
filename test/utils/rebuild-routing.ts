import { RoutingBuilder } from '../../src/lookup/routing/routing-builder';
import type { TestContext } from './create-test-app';

/**
 * A change written straight to the database raises no change event (no audit entry): like any
 * write made outside the service, it reaches the lookup routing at the next full rebuild. Runs it.
 */
export const rebuildRouting = (ctx: TestContext): Promise<void> =>
  ctx.app.get(RoutingBuilder).rebuild();
