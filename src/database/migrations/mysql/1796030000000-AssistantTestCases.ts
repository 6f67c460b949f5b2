import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An assistant's test cases, and the checks that ran them against a version. */
export class AssistantTestCases1796030000000 implements MigrationInterface {
  name = 'AssistantTestCases1796030000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`assistant_test_cases\` (\`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), \`user_id\` varchar(36) NOT NULL, \`test_case_id\` varchar(36) NOT NULL, \`assistant_id\` varchar(36) NOT NULL, \`name\` varchar(100) NOT NULL, \`call\` json NOT NULL, \`context_mock\` json NULL, \`tool_mocks\` json NULL, \`expect\` json NOT NULL, INDEX \`idx_test_cases_assistant\` (\`user_id\`, \`assistant_id\`, \`created_at\`), PRIMARY KEY (\`test_case_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`assistant_checks\` (\`check_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`assistant_id\` varchar(36) NOT NULL, \`version\` int NULL, \`passed\` tinyint NOT NULL, \`cases\` json NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), INDEX \`idx_checks_assistant\` (\`user_id\`, \`assistant_id\`, \`created_at\`), INDEX \`idx_checks_version\` (\`assistant_id\`, \`version\`, \`created_at\`), PRIMARY KEY (\`check_id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`assistant_checks\``);
    await queryRunner.query(`DROP TABLE \`assistant_test_cases\``);
  }
}
