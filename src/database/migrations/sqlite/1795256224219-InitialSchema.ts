import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795256224219 implements MigrationInterface {
  name = 'InitialSchema1795256224219';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "activity_logs" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "user_id" varchar(36) NOT NULL, "log_type" varchar(32) NOT NULL, "status" varchar(16) NOT NULL, "assistant_id" varchar(36), "room_name" varchar(255) NOT NULL, "timestamp" datetime(6) NOT NULL, "message" varchar(1000) NOT NULL, "request_data" text NOT NULL, "response_data" text NOT NULL, "latency_ms" integer NOT NULL)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_logs_ts" ON "activity_logs" ("timestamp") `);
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_status_ts" ON "activity_logs" ("user_id", "status", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_room_ts" ON "activity_logs" ("user_id", "room_name", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_assistant_ts" ON "activity_logs" ("user_id", "assistant_id", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_type_ts" ON "activity_logs" ("user_id", "log_type", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_ts" ON "activity_logs" ("user_id", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "assistants" ("assistant_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "assistant_name" varchar(100) NOT NULL, "assistant_description" text NOT NULL, "assistant_prompt" text NOT NULL, "assistant_llm_mode" varchar(16) NOT NULL, "assistant_start_instruction" varchar(200), "assistant_interaction_config" text NOT NULL, "assistant_end_call_enabled" boolean NOT NULL DEFAULT (0), "assistant_end_call_trigger_phrase" text, "assistant_end_call_agent_message" text, "assistant_end_call_url" varchar(2048), "assistant_tts_model" varchar(32), "assistant_tts_config" text, "assistant_llm_config" text, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_assistants_user_created" ON "assistants" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("api_key_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "key_hash" varchar(64) NOT NULL, "key_prefix" varchar(16) NOT NULL, "revoked_at" datetime(6), "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_57384430aa1959f4578046c9b81" UNIQUE ("key_hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_api_keys_user" ON "api_keys" ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "users" ("user_id" varchar(36) PRIMARY KEY NOT NULL, "user_name" varchar(100) NOT NULL, "user_email" varchar(254) NOT NULL, "org_name" varchar(100), "webhook_secret" varchar(100), "webhook_secret_previous" varchar(100), "webhook_secret_previous_expires_at" datetime(6), "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_643a0bfb9391001cf11e581bdd6" UNIQUE ("user_email"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "inbound_context_strategies" ("strategy_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "strategy_name" varchar(100) NOT NULL, "strategy_type" varchar(16) NOT NULL, "strategy_config" text NOT NULL, "is_active" boolean NOT NULL DEFAULT (1), "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_strategies_user_created" ON "inbound_context_strategies" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "inbound_mappings" ("inbound_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "assistant_id" varchar(36), "inbound_context_strategy_id" varchar(36), "service" varchar(16) NOT NULL, "inbound_config" text NOT NULL, "phone_number_normalized" varchar(32) NOT NULL, "is_active" boolean NOT NULL DEFAULT (1), "active_phone_number" varchar(32), "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')), CONSTRAINT "UQ_812c2abdf17eff9dc44f2dade6f" UNIQUE ("active_phone_number"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_inbound_number" ON "inbound_mappings" ("phone_number_normalized") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_inbound_user_created" ON "inbound_mappings" ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "assistant_tools" ("assistant_id" varchar(36) NOT NULL, "tool_id" varchar(36) NOT NULL, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), PRIMARY KEY ("assistant_id", "tool_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_assistant_tools_tool" ON "assistant_tools" ("tool_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "tools" ("tool_id" varchar(36) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "tool_name" varchar(64) NOT NULL, "tool_description" varchar(500) NOT NULL, "tool_parameters" text NOT NULL, "tool_execution_type" varchar(16) NOT NULL, "tool_execution_config" text NOT NULL, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_tools_user_created" ON "tools" ("user_id", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_tools_user_created"`);
    await queryRunner.query(`DROP TABLE "tools"`);
    await queryRunner.query(`DROP INDEX "idx_assistant_tools_tool"`);
    await queryRunner.query(`DROP TABLE "assistant_tools"`);
    await queryRunner.query(`DROP INDEX "idx_inbound_user_created"`);
    await queryRunner.query(`DROP INDEX "idx_inbound_number"`);
    await queryRunner.query(`DROP TABLE "inbound_mappings"`);
    await queryRunner.query(`DROP INDEX "idx_strategies_user_created"`);
    await queryRunner.query(`DROP TABLE "inbound_context_strategies"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "idx_api_keys_user"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "idx_assistants_user_created"`);
    await queryRunner.query(`DROP TABLE "assistants"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_type_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_assistant_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_room_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_status_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_ts"`);
    await queryRunner.query(`DROP TABLE "activity_logs"`);
  }
}
