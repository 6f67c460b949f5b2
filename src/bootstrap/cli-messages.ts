import type { FieldError } from '../common/errors/app.exception';

/**
 * One line per bad field, naming the command-line option it came from. class-validator reports
 * every rule a value breaks (a missing email is both "required" and "not an email"); the first is
 * the one to fix, and the next run reports what is still wrong.
 */
export function problemLines(errors: FieldError[], optionOf: Record<string, string>): string[] {
  const firstByField = new Map<string, string>();
  for (const { field, message } of errors) {
    const top = field.split(/[.[]/)[0];
    const option = optionOf[top] ? `${optionOf[top]} (${field})` : field;
    if (!firstByField.has(option)) firstByField.set(option, message);
  }
  return [...firstByField].map(([option, message]) => `${option}: ${message}`);
}
