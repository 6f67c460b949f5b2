import type { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalisePhoneNumbers } from '../../migration-steps/canonical-phone-numbers';

/**
 * Stored numbers become canonical (country code + national number, digits only), so that
 * `+91 80 5555 7546` and `080 5555 7546` are one number; a clash keeps the older holder and is
 * logged, naming the number and the rows.
 */
export class CanonicalPhoneNumbers1795480000000 implements MigrationInterface {
  name = 'CanonicalPhoneNumbers1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await canonicalisePhoneNumbers(queryRunner);
  }

  /** The spellings are not kept: going back leaves the canonical numbers, which the old code reads as digits. */
  public async down(): Promise<void> {}
}
