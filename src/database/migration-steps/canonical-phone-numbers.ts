import { Logger } from '@nestjs/common';
import type { CountryCode } from 'libphonenumber-js';
import type { QueryRunner } from 'typeorm';
import { canonicalPhoneNumber } from '../../common/validation/phone-number';
import { configuredPhoneRegion } from '../../config/app-config';

interface MappingRow {
  inbound_id: string;
  user_id: string;
  inbound_config: unknown;
  phone_number_normalized: string;
  is_active: unknown;
  active_phone_number: string | null;
}

interface HolderRow {
  phone_number_normalized: string;
  user_id: string;
  created_at: unknown;
}

/** The number as it was sent, from `inbound_config` (a JSON column: an object, or its text on SQLite/MariaDB). */
function sentNumber(config: unknown): string | null {
  let value = config;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return null;
    }
  }
  const phone = (value as { phone_number?: unknown } | null)?.phone_number;
  return typeof phone === 'string' ? phone : null;
}

/**
 * Rewrites every stored number to its canonical form (country code + national number, digits
 * only; `canonicalPhoneNumber`): mappings from the number as it was sent, holders from their
 * mappings. Where two holders turn out to hold one number, the older keeps it and the other's
 * mappings of it are paused; where one user had two active mappings of it, the older stays active.
 * Each such clash is one warning line naming the number and the rows. Plain SQL that both drivers
 * run; returns the warning lines.
 */
export async function canonicalisePhoneNumbers(
  queryRunner: QueryRunner,
  region: CountryCode = configuredPhoneRegion(),
  warn: (line: string) => void = (line) => new Logger('Migration').warn(line),
): Promise<string[]> {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    warn(line);
  };
  const mappings = (await queryRunner.query(
    `SELECT inbound_id, user_id, inbound_config, phone_number_normalized, is_active, active_phone_number
     FROM inbound_mappings ORDER BY created_at ASC, inbound_id ASC`,
  )) as MappingRow[];
  const holders = (await queryRunner.query(
    `SELECT phone_number_normalized, user_id, created_at FROM phone_number_holders ORDER BY created_at ASC, user_id ASC`,
  )) as HolderRow[];

  // Stored digits were `+` and country code when sent so; else whatever was typed.
  const canonicalOfStored = (stored: string) =>
    canonicalPhoneNumber(`+${stored}`, region) ?? stored;
  const canonicalOf = new Map<string, string>(); // "user_id stored" → canonical
  const next = mappings.map((row) => {
    const sent = sentNumber(row.inbound_config);
    const canonical =
      (sent !== null ? canonicalPhoneNumber(sent, region) : null) ??
      canonicalOfStored(row.phone_number_normalized);
    canonicalOf.set(`${row.user_id} ${row.phone_number_normalized}`, canonical);
    return { row, canonical, active: row.active_phone_number !== null, paused: false };
  });

  // Holders: the oldest holder of each canonical number keeps it.
  const keeper = new Map<string, HolderRow>();
  const losers = new Map<string, HolderRow[]>();
  for (const holder of holders) {
    const canonical =
      canonicalOf.get(`${holder.user_id} ${holder.phone_number_normalized}`) ??
      canonicalOfStored(holder.phone_number_normalized);
    const kept = keeper.get(canonical);
    if (!kept) keeper.set(canonical, holder);
    else losers.set(canonical, [...(losers.get(canonical) ?? []), holder]);
  }
  for (const [canonical, lost] of losers) {
    const kept = keeper.get(canonical)!;
    for (const holder of lost) {
      const paused = next.filter(
        (m) => m.canonical === canonical && m.row.user_id === holder.user_id,
      );
      for (const m of paused) Object.assign(m, { active: false, paused: m.active });
      say(
        `phone number ${canonical}: held as ${kept.phone_number_normalized} by user ${kept.user_id} and as ` +
          `${holder.phone_number_normalized} by user ${holder.user_id}; the older holder, user ${kept.user_id}, keeps it, ` +
          `and user ${holder.user_id}'s mappings of it are paused: ${paused.map((m) => m.row.inbound_id).join(', ') || 'none'}`,
      );
    }
  }
  // One active mapping per number: the oldest active one stays active.
  const activeOf = new Map<string, string>();
  for (const m of next) {
    if (!m.active) continue;
    const first = activeOf.get(m.canonical);
    if (first === undefined) {
      activeOf.set(m.canonical, m.row.inbound_id);
      continue;
    }
    Object.assign(m, { active: false, paused: true });
    say(
      `phone number ${m.canonical}: mappings ${first} and ${m.row.inbound_id} were both active in different spellings; ` +
        `${first}, the older, stays active and ${m.row.inbound_id} is paused`,
    );
  }

  const changed = next.filter(
    (m) =>
      m.canonical !== m.row.phone_number_normalized ||
      (m.active ? m.canonical : null) !== m.row.active_phone_number,
  );
  // Free every changing active number first, so no row is set to a value another still holds.
  for (const m of changed)
    if (m.row.active_phone_number !== null)
      await queryRunner.query(
        `UPDATE inbound_mappings SET active_phone_number = NULL WHERE inbound_id = ?`,
        [m.row.inbound_id],
      );
  for (const m of changed)
    await queryRunner.query(
      `UPDATE inbound_mappings SET phone_number_normalized = ?, active_phone_number = ?, is_active = ? WHERE inbound_id = ?`,
      [
        m.canonical,
        m.active ? m.canonical : null,
        m.paused ? 0 : Number(m.row.is_active),
        m.row.inbound_id,
      ],
    );

  // Holders whose number changes or who lost it make way; then each kept number is written once.
  const keptRows = new Set(keeper.values());
  const holderCanonical = new Map(
    [...keeper].map(([canonical, holder]) => [holder, canonical] as const),
  );
  for (const holder of holders) {
    const canonical = holderCanonical.get(holder);
    if (keptRows.has(holder) && canonical === holder.phone_number_normalized) continue;
    await queryRunner.query(`DELETE FROM phone_number_holders WHERE phone_number_normalized = ?`, [
      holder.phone_number_normalized,
    ]);
  }
  for (const [canonical, holder] of keeper) {
    if (canonical === holder.phone_number_normalized) continue;
    await queryRunner.query(
      `INSERT INTO phone_number_holders (phone_number_normalized, user_id, created_at) VALUES (?, ?, ?)`,
      [canonical, holder.user_id, holder.created_at],
    );
  }
  return lines;
}
