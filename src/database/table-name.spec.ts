import { Entity, PrimaryColumn } from 'typeorm';
import { tableNameOf } from './table-name';

@Entity('named_rows')
class NamedRow {
  @PrimaryColumn()
  id!: string;
}

class NotAnEntity {}

describe('tableNameOf', () => {
  it('answers the name @Entity gives the class', () => {
    expect(tableNameOf(NamedRow)).toBe('named_rows');
  });

  it('refuses a class that is not a named entity', () => {
    expect(() => tableNameOf(NotAnEntity)).toThrow('NotAnEntity has no @Entity(name)');
  });
});
