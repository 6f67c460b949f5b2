import type { EntityManager } from 'typeorm';
import { AssistantDeletion } from './assistant-deletion';

describe(AssistantDeletion.name, () => {
  it('runs every registered handler, in order, with the delete’s transaction, id and owner', async () => {
    const deletion = new AssistantDeletion();
    const em = {} as EntityManager;
    const calls: string[] = [];
    deletion.onDeleted((m, id) => {
      expect(m).toBe(em);
      calls.push(`first:${id}`);
      return Promise.resolve();
    });
    deletion.onDeleted((_m, id, owner) => {
      calls.push(`second:${id}:${owner}`);
      return Promise.resolve();
    });

    await deletion.deleted(em, 'a-1', 'u-1');

    expect(calls).toEqual(['first:a-1', 'second:a-1:u-1']);
  });

  it('fails the delete when a handler fails, running no handler after it', async () => {
    const deletion = new AssistantDeletion();
    const later = jest.fn();
    deletion.onDeleted(() => Promise.reject(new Error('mapping write failed')));
    deletion.onDeleted(later);

    await expect(deletion.deleted({} as EntityManager, 'a-1', 'u-1')).rejects.toThrow(
      'mapping write failed',
    );
    expect(later).not.toHaveBeenCalled();
  });
});
