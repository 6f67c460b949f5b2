import { FIELD, FIELD_PREFIXES, recordFields, type RoutingEntry } from './routing-entry';

/** Marks a table that holds every mapping (a full rebuild completed): a missing entry is an unknown mapping. */
export const BUILT = 'built';
/** The counter tickets are taken from. */
export const TICKETS = 'tickets';

/** A lookup's one read: the entry, the shared records it names (by field), and whether the table is complete. */
export interface RoutingRead {
  entry: string | null;
  records: Map<string, string>;
  built: boolean;
}

/**
 * What one write puts in the table: entries by inbound id (a deleted mapping's entry is a
 * tombstone, `d`), and shared records by field (sealed, or a tombstone). Each value carries the
 * ticket of the read it comes from and replaces only a value of the same or an older ticket.
 */
export interface RoutingBatch {
  entries: RoutingEntry[];
  records: Map<string, string>;
}

/** The ticket a stored entry or record was written with. */
export const ticketOf = (text: string): number => (JSON.parse(text) as { t: number }).t;

/**
 * The routing table: one hash holding each number's small entry (`e:<inbound_id>`), the number
 * index (`n:<number>` → inbound_id, while the mapping is active) and the records many numbers share
 * (`a:`, `v:`, `s:`, `o:`), each stored once. One key: a lookup's one read is a single-key script,
 * and the table works on a Redis Cluster unchanged (every field in one hash slot).
 *
 * Tickets order writes across processes: a write takes one before it reads the database, and a
 * value replaces only one read no later, so a slow full rebuild never puts back what a change made
 * meanwhile replaced. A full rebuild ends with `sweep`: what no read since its start wrote is gone.
 */
export abstract class RoutingStore {
  /** The entry of a mapping, by inbound id or by active number, and what it names. */
  abstract read(by: 'id' | 'number', key: string): Promise<RoutingRead>;
  /**
   * Calls `listener` each time the table can be written again after it could not (Redis back
   * after an outage); never for a table that cannot go away.
   */
  onRecovered(listener: () => void): void {
    void listener;
  }
  /** A number greater than every ticket taken before (take it before reading the database). */
  abstract ticket(): Promise<number>;


  /** Writes `batch` as one atomic step (see RoutingBatch). */
  abstract write(batch: RoutingBatch): Promise<void>;

  /**
   * Ends a full rebuild that took ticket `before` first: removes every entry and record written
   * from an older read (nothing since has it), number fields whose entry no longer routes them, and
   * fields of another format; then marks the table complete. In steps, never the whole table at once.
   */
  abstract sweep(before: number): Promise<void>;
}

/** Whether `field` is one the table's format names (else it is an older format's, and swept). */
export const isKnownField = (field: string): boolean =>
  field === BUILT || field === TICKETS || FIELD_PREFIXES.includes(field.slice(0, 2));

/** Embedded mode: the one process's memory (each write runs to its end before another starts). */
export class MemoryRoutingStore extends RoutingStore {
  private readonly table = new Map<string, string>();

  read(by: 'id' | 'number', key: string): Promise<RoutingRead> {
    const built = this.table.has(BUILT);
    const id = by === 'id' ? key : this.table.get(FIELD.number(key));
    const entry = id === undefined ? null : (this.table.get(FIELD.entry(id)) ?? null);
    const records = new Map<string, string>();
    const parsed = entry ? (JSON.parse(entry) as RoutingEntry) : null;
    if (parsed && !parsed.d) {
      for (const field of recordFields(parsed)) {
        const value = this.table.get(field);
        if (value !== undefined) records.set(field, value);
      }
    }
    return Promise.resolve({ entry, records, built });
  }

  ticket(): Promise<number> {
    const next = Number(this.table.get(TICKETS) ?? 0) + 1;
    this.table.set(TICKETS, String(next));
    return Promise.resolve(next);
  }

  write(batch: RoutingBatch): Promise<void> {
    for (const entry of batch.entries) {
      const field = FIELD.entry(entry.i);
      const oldText = this.table.get(field);
      const old = oldText ? (JSON.parse(oldText) as RoutingEntry) : null;
      if (old && old.t > entry.t) continue;
      if (old) this.unindex(old, entry);
      this.table.set(field, JSON.stringify(entry));
      if (!entry.d && !entry.x) this.table.set(FIELD.number(entry.p), entry.i);
    }
    for (const [field, text] of batch.records) {
      const old = this.table.get(field);
      if (old === undefined || ticketOf(old) <= ticketOf(text)) this.table.set(field, text);
    }
    return Promise.resolve();
  }

  sweep(before: number): Promise<void> {
    for (const [field, value] of [...this.table]) {
      if (!isKnownField(field)) this.table.delete(field);
      else if (field.startsWith('n:')) {
        const text = this.table.get(FIELD.entry(value));
        const entry = text ? (JSON.parse(text) as RoutingEntry) : null;
        if (!entry || entry.d || entry.x || FIELD.number(entry.p) !== field)
          this.table.delete(field);
      } else if (field !== BUILT && field !== TICKETS && ticketOf(value) < before) {
        this.table.delete(field);
        if (field.startsWith('e:')) this.unindex(JSON.parse(value) as RoutingEntry, null);
      }
    }
    this.table.set(BUILT, new Date().toISOString());
    return Promise.resolve();
  }

  /** Drops `old`'s number field when it still names `old` and `next` does not route that number. */
  private unindex(old: RoutingEntry, next: RoutingEntry | null): void {
    if (old.d || old.x || !old.p) return;
    if (next && !next.d && !next.x && next.p === old.p) return;
    const field = FIELD.number(old.p);
    if (this.table.get(field) === old.i) this.table.delete(field);
  }
}
