import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795256211038 implements MigrationInterface {
  name = 'InitialSchema1795256211038';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`activity_logs\` (\`id\` bigint NOT NULL AUTO_INCREMENT, \`user_id\` varchar(36) NOT NULL, \`log_type\` varchar(32) NOT NULL, \`status\` varchar(16) NOT NULL, \`assistant_id\` varchar(36) NULL, \`room_name\` varchar(255) NOT NULL, \`timestamp\` datetime(6) NOT NULL, \`message\` varchar(1000) NOT NULL, \`request_data\` json NOT NULL, \`response_data\` json NOT NULL, \`latency_ms\` int NOT NULL, INDEX \`idx_logs_ts\` (\`timestamp\`), INDEX \`idx_logs_user_status_ts\` (\`user_id\`, \`status\`, \`timestamp\`, \`id\`), INDEX \`idx_logs_user_room_ts\` (\`user_id\`, \`room_name\`, \`timestamp\`, \`id\`), INDEX \`idx_logs_user_assistant_ts\` (\`user_id\`, \`assistant_id\`, \`timestamp\`, \`id\`), INDEX \`idx_logs_user_type_ts\` (\`user_id\`, \`log_type\`, \`timestamp\`, \`id\`), INDEX \`idx_logs_user_ts\` (\`user_id\`, \`timestamp\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`assistants\` (\`assistant_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`assistant_name\` varchar(100) NOT NULL, \`assistant_description\` mediumtext NOT NULL, \`assistant_prompt\` mediumtext NOT NULL, \`assistant_llm_mode\` varchar(16) NOT NULL, \`assistant_start_instruction\` varchar(200) NULL, \`assistant_interaction_config\` json NOT NULL, \`assistant_end_call_enabled\` tinyint NOT NULL DEFAULT 0, \`assistant_end_call_trigger_phrase\` text NULL, \`assistant_end_call_agent_message\` text NULL, \`assistant_end_call_url\` varchar(2048) NULL, \`assistant_tts_model\` varchar(32) NULL, \`assistant_tts_config\` json NULL, \`assistant_llm_config\` json NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), INDEX \`idx_assistants_user_created\` (\`user_id\`, \`created_at\`), PRIMARY KEY (\`assistant_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`api_keys\` (\`api_key_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`key_hash\` varchar(64) NOT NULL, \`key_prefix\` varchar(16) NOT NULL, \`revoked_at\` datetime(6) NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), INDEX \`idx_api_keys_user\` (\`user_id\`), UNIQUE INDEX \`IDX_57384430aa1959f4578046c9b8\` (\`key_hash\`), PRIMARY KEY (\`api_key_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`users\` (\`user_id\` varchar(36) NOT NULL, \`user_name\` varchar(100) NOT NULL, \`user_email\` varchar(254) NOT NULL, \`org_name\` varchar(100) NULL, \`webhook_secret\` varchar(100) NULL, \`webhook_secret_previous\` varchar(100) NULL, \`webhook_secret_previous_expires_at\` datetime(6) NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), UNIQUE INDEX \`IDX_643a0bfb9391001cf11e581bdd\` (\`user_email\`), PRIMARY KEY (\`user_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`inbound_context_strategies\` (\`strategy_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`strategy_name\` varchar(100) NOT NULL, \`strategy_type\` varchar(16) NOT NULL, \`strategy_config\` json NOT NULL, \`is_active\` tinyint NOT NULL DEFAULT 1, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), INDEX \`idx_strategies_user_created\` (\`user_id\`, \`created_at\`), PRIMARY KEY (\`strategy_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`inbound_mappings\` (\`inbound_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`assistant_id\` varchar(36) NULL, \`inbound_context_strategy_id\` varchar(36) NULL, \`service\` varchar(16) NOT NULL, \`inbound_config\` json NOT NULL, \`phone_number_normalized\` varchar(32) NOT NULL, \`is_active\` tinyint NOT NULL DEFAULT 1, \`active_phone_number\` varchar(32) NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), INDEX \`idx_inbound_number\` (\`phone_number_normalized\`), INDEX \`idx_inbound_user_created\` (\`user_id\`, \`created_at\`), UNIQUE INDEX \`IDX_812c2abdf17eff9dc44f2dade6\` (\`active_phone_number\`), PRIMARY KEY (\`inbound_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`assistant_tools\` (\`assistant_id\` varchar(36) NOT NULL, \`tool_id\` varchar(36) NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), INDEX \`idx_assistant_tools_tool\` (\`tool_id\`), PRIMARY KEY (\`assistant_id\`, \`tool_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`tools\` (\`tool_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`tool_name\` varchar(64) NOT NULL, \`tool_description\` varchar(500) NOT NULL, \`tool_parameters\` json NOT NULL, \`tool_execution_type\` varchar(16) NOT NULL, \`tool_execution_config\` json NOT NULL, \`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), INDEX \`idx_tools_user_created\` (\`user_id\`, \`created_at\`), PRIMARY KEY (\`tool_id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_tools_user_created\` ON \`tools\``);
    await queryRunner.query(`DROP TABLE \`tools\``);
    await queryRunner.query(`DROP INDEX \`idx_assistant_tools_tool\` ON \`assistant_tools\``);
    await queryRunner.query(`DROP TABLE \`assistant_tools\``);
    await queryRunner.query(
      `DROP INDEX \`IDX_812c2abdf17eff9dc44f2dade6\` ON \`inbound_mappings\``,
    );
    await queryRunner.query(`DROP INDEX \`idx_inbound_user_created\` ON \`inbound_mappings\``);
    await queryRunner.query(`DROP INDEX \`idx_inbound_number\` ON \`inbound_mappings\``);
    await queryRunner.query(`DROP TABLE \`inbound_mappings\``);
    await queryRunner.query(
      `DROP INDEX \`idx_strategies_user_created\` ON \`inbound_context_strategies\``,
    );
    await queryRunner.query(`DROP TABLE \`inbound_context_strategies\``);
    await queryRunner.query(`DROP INDEX \`IDX_643a0bfb9391001cf11e581bdd\` ON \`users\``);
    await queryRunner.query(`DROP TABLE \`users\``);
    await queryRunner.query(`DROP INDEX \`IDX_57384430aa1959f4578046c9b8\` ON \`api_keys\``);
    await queryRunner.query(`DROP INDEX \`idx_api_keys_user\` ON \`api_keys\``);
    await queryRunner.query(`DROP TABLE \`api_keys\``);
    await queryRunner.query(`DROP INDEX \`idx_assistants_user_created\` ON \`assistants\``);
    await queryRunner.query(`DROP TABLE \`assistants\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_type_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_assistant_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_room_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_status_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP TABLE \`activity_logs\``);
  }
}
