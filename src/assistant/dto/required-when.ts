import { applyDecorators } from '@nestjs/common';
import { IsDefined, ValidateIf } from 'class-validator';

/**
 * A field required only in some states of its siblings (`assistant_tts_config` in pipeline mode,
 * `assistant_end_call_trigger_phrase` when end-call is enabled). The field's other rules apply
 * whenever it is sent; when it is missing and `when(object)` holds, the error names the reason.
 * `null` counts as missing.
 */
export function RequiredWhen(when: (object: Record<string, unknown>) => boolean, reason: string) {
  return applyDecorators(
    ValidateIf(
      (object: Record<string, unknown>, value: unknown) =>
        (value !== undefined && value !== null) || when(object),
    ),
    IsDefined({ message: `$property is required ${reason}` }),
  );
}
