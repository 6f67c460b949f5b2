import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit trail: one entry per change to a user's configuration. */
export class AuditEntries1795495000000 implements MigrationInterface {
  name = 'AuditEntries1795495000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`audit_entries\` (\`id\` bigint NOT NULL AUTO_INCREMENT, \`audit_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`timestamp\` datetime(6) NOT NULL, \`action\` varchar(16) NOT NULL, \`resource_type\` varchar(32) NOT NULL, \`resource_id\` varchar(100) NOT NULL, \`actor_user_id\` varchar(36) NULL, \`actor_api_key_id\` varchar(36) NULL, \`request_id\` varchar(64) NULL, \`changes\` json NOT NULL, UNIQUE INDEX \`idx_audit_audit_id\` (\`audit_id\`), INDEX \`idx_audit_ts\` (\`timestamp\`), INDEX \`idx_audit_user_resource_ts\` (\`user_id\`, \`resource_type\`, \`resource_id\`, \`timestamp\`, \`id\`), INDEX \`idx_audit_user_ts\` (\`user_id\`, \`timestamp\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`audit_entries\``);
  }
}
