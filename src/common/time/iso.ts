/** A stored timestamp (a Date, or the text SQLite hands back) as UTC ISO 8601 with `Z`. */
export const toIso = (value: Date | string): string => new Date(value).toISOString();
