import { MigrationInterface, QueryRunner } from 'typeorm';

export class ActivityLogCounts1795454042400 implements MigrationInterface {
  name = 'ActivityLogCounts1795454042400';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`activity_log_counts\` (\`user_id\` varchar(36) NOT NULL, \`day\` date NOT NULL, \`log_type\` varchar(32) NOT NULL, \`status\` varchar(16) NOT NULL, \`assistant_id\` varchar(36) NOT NULL, \`entries\` bigint NOT NULL, PRIMARY KEY (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`)) ENGINE=InnoDB`,
    );
    // Counters of the entries already stored (timestamps are UTC).
    await queryRunner.query(
      `INSERT INTO \`activity_log_counts\` (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`, \`entries\`) SELECT \`user_id\`, DATE(\`timestamp\`), \`log_type\`, \`status\`, COALESCE(\`assistant_id\`, ''), COUNT(*) FROM \`activity_logs\` GROUP BY \`user_id\`, DATE(\`timestamp\`), \`log_type\`, \`status\`, COALESCE(\`assistant_id\`, '')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`activity_log_counts\``);
  }
}
