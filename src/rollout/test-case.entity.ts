import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type {
  TestCaseCall,
  TestCaseContextMock,
  TestCaseExpect,
  TestCaseToolMocks,
} from './rollout.types';

/** One test case of an assistant: the call, what the strategy and tools answer, what is expected. */
@Entity('assistant_test_cases')
@Index('idx_test_cases_assistant', ['user_id', 'assistant_id', 'created_at'])
export class TestCaseEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  test_case_id: string;

  @Column({ type: 'varchar', length: 36 })
  assistant_id: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: COLUMN_TYPES.json })
  call: TestCaseCall;

  @Column({ type: COLUMN_TYPES.json, nullable: true })
  context_mock: TestCaseContextMock | null;

  @Column({ type: COLUMN_TYPES.json, nullable: true })
  tool_mocks: TestCaseToolMocks | null;

  @Column({ type: COLUMN_TYPES.json })
  expect: TestCaseExpect;
}
