import type { DataSource, EntityManager } from 'typeorm';
import { ReplicaReads } from './replica-reads';

/** A data source with or without replication whose replica connection may refuse. */
function dataSource(replicated: boolean, replicaUp = true) {
  const primary = { name: 'primary' } as unknown as EntityManager;
  const replica = { name: 'replica' } as unknown as EntityManager;
  const runner = {
    manager: replica,
    connect: jest.fn(() => (replicaUp ? Promise.resolve() : Promise.reject(new Error('refused')))),
    release: jest.fn(() => Promise.resolve()),
  };
  const source = {
    driver: { isReplicated: replicated },
    manager: primary,
    createQueryRunner: jest.fn(() => runner),
  };
  return { source: source as unknown as DataSource, runner, createQueryRunner: source.createQueryRunner };
}

const managerName = (em: EntityManager) =>
  Promise.resolve((em as unknown as { name: string }).name);

describe(ReplicaReads.name, () => {
  it('reads the primary without replicas', async () => {
    const { source, createQueryRunner } = dataSource(false);
    await expect(new ReplicaReads(source).run(managerName)).resolves.toBe('primary');
    expect(createQueryRunner).not.toHaveBeenCalled();
  });

  it("reads on a 'slave' query runner with replicas, and releases it", async () => {
    const { source, runner, createQueryRunner } = dataSource(true);
    await expect(new ReplicaReads(source).run(managerName)).resolves.toBe('replica');
    expect(createQueryRunner).toHaveBeenCalledWith('slave');
    expect(runner.release).toHaveBeenCalledTimes(1);
  });

  it('reads the primary when no replica gives a connection', async () => {
    const { source, runner } = dataSource(true, false);
    await expect(new ReplicaReads(source).run(managerName)).resolves.toBe('primary');
    expect(runner.release).toHaveBeenCalledTimes(1);
  });
});
