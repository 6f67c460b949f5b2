import { keyspaceDatabases, sharedPrefixWarning } from './shared-prefix-check';

describe(keyspaceDatabases.name, () => {
  it('lists the databases INFO keyspace reports', () => {
    const info =
      '# Keyspace\r\ndb0:keys=176,expires=0,avg_ttl=0\r\ndb14:keys=3,expires=1,avg_ttl=9\r\n';
    expect(keyspaceDatabases(info)).toEqual([0, 14]);
    expect(keyspaceDatabases('# Keyspace\r\n')).toEqual([]);
  });
});

describe(sharedPrefixWarning.name, () => {
  it('names the databases, the prefix and the setting to change', () => {
    expect(sharedPrefixWarning('bull', 13, [14])).toBe(
      'Redis database 14 of this server also holds Bull queues under the prefix "bull" (this ' +
        'process uses database 13): Redis pub/sub is not scoped to a database, so producers of ' +
        "either deployment can receive the other's job completion events. Give each deployment " +
        'its own QUEUE_PREFIX.',
    );
    expect(sharedPrefixWarning('bull', 0, [2, 5])).toMatch(
      /^Redis databases 2, 5 of this server also hold Bull/,
    );
  });
});
