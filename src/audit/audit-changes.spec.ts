import { diffViews, flattenView } from './audit-changes';

describe('audit changes', () => {
  it('flattens objects by dotted path and keeps arrays whole', () => {
    const leaves = flattenView({
      a: 1,
      config: { url: 'https://x', headers: { Authorization: '****' } },
      tool_ids: ['t1'],
      empty: {},
      updated_at: '2025-01-01T00:00:00.000Z',
    });
    expect([...leaves.entries()]).toEqual([
      ['a', 1],
      ['config.url', 'https://x'],
      ['config.headers.Authorization', '****'],
      ['tool_ids', ['t1']],
      ['empty', {}],
    ]);
  });

  it('lists only the fields that differ, with null for a side that lacks one', () => {
    const before = { name: 'a', headers: { 'X-Team': 'ops' }, tool_ids: ['t1'] };
    const after = { name: 'b', headers: { 'X-Team': 'ops', Authorization: '****' }, tool_ids: [] };
    expect(diffViews(before, after)).toEqual([
      { field: 'name', before: 'a', after: 'b' },
      { field: 'tool_ids', before: ['t1'], after: [] },
      { field: 'headers.Authorization', before: null, after: '****' },
    ]);
  });

  it('describes a creation and a deletion field by field', () => {
    expect(diffViews(null, { name: 'a' })).toEqual([{ field: 'name', before: null, after: 'a' }]);
    expect(diffViews({ name: 'a' }, null)).toEqual([{ field: 'name', before: 'a', after: null }]);
  });

  it('leaves out the timestamps every write renews', () => {
    expect(diffViews({ updated_at: '1', created_at: '1' }, { updated_at: '2' })).toEqual([]);
  });
});
