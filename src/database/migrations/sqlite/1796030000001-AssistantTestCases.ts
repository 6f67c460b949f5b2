import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An assistant's test cases, and the checks that ran them against a version. */
export class AssistantTestCases1796030000001 implements MigrationInterface {
  name = 'AssistantTestCases1796030000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "assistant_test_cases" ("created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "user_id" varchar(36) NOT NULL, "test_case_id" varchar(36) PRIMARY KEY NOT NULL, "assistant_id" varchar(36) NOT NULL, "name" varchar(100) NOT NULL, "call" text NOT NULL, "context_mock" text, "tool_mocks" text, "expect" text NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_test_cases_assistant" ON "assistant_test_cases" ("user_id", "assistant_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "assistant_checks" ("check_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "assistant_id" varchar(36) NOT NULL, "version" integer, "passed" boolean NOT NULL, "cases" text NOT NULL, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_checks_assistant" ON "assistant_checks" ("user_id", "assistant_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_checks_version" ON "assistant_checks" ("assistant_id", "version", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_checks_version"`);
    await queryRunner.query(`DROP INDEX "idx_checks_assistant"`);
    await queryRunner.query(`DROP TABLE "assistant_checks"`);
    await queryRunner.query(`DROP INDEX "idx_test_cases_assistant"`);
    await queryRunner.query(`DROP TABLE "assistant_test_cases"`);
  }
}
