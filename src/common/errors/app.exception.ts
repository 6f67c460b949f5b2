import { HttpStatus } from '@nestjs/common';

/** Every error the service raises on purpose carries one of these codes. */
export enum AppErrorCode {
  VALIDATION = 'VALIDATION',
  UNAUTHORIZED = 'UNAUTHORIZED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  PRECONDITION_FAILED = 'PRECONDITION_FAILED',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  UNPROCESSABLE = 'UNPROCESSABLE',
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
  DEPENDENCY_UNAVAILABLE = 'DEPENDENCY_UNAVAILABLE',
}

export interface FieldError {
  /** Full path of the offending field, e.g. `assistant_tts_config.voice_id` or `tool_parameters[0].name`. */
  field: string;
  message: string;
}

/** The one mapping from error code to HTTP status; a Record, so a new code cannot be forgotten. */
const STATUS_OF_CODE: Record<AppErrorCode, HttpStatus> = {
  [AppErrorCode.VALIDATION]: HttpStatus.BAD_REQUEST,
  [AppErrorCode.UNAUTHORIZED]: HttpStatus.UNAUTHORIZED,
  [AppErrorCode.FORBIDDEN]: HttpStatus.FORBIDDEN,
  [AppErrorCode.NOT_FOUND]: HttpStatus.NOT_FOUND,
  [AppErrorCode.CONFLICT]: HttpStatus.CONFLICT,
  [AppErrorCode.PRECONDITION_FAILED]: HttpStatus.PRECONDITION_FAILED,
  [AppErrorCode.PAYLOAD_TOO_LARGE]: HttpStatus.PAYLOAD_TOO_LARGE,
  [AppErrorCode.UNSUPPORTED_MEDIA_TYPE]: HttpStatus.UNSUPPORTED_MEDIA_TYPE,
  [AppErrorCode.UNPROCESSABLE]: HttpStatus.UNPROCESSABLE_ENTITY,
  [AppErrorCode.TOO_MANY_REQUESTS]: HttpStatus.TOO_MANY_REQUESTS,
  [AppErrorCode.DEPENDENCY_UNAVAILABLE]: HttpStatus.SERVICE_UNAVAILABLE,
};

export function httpStatusOf(code: AppErrorCode): HttpStatus {
  return STATUS_OF_CODE[code];
}

/**
 * A deliberate, client-facing error. The global exception filter turns it into the envelope
 * `{success: false, message, data}`; `data` is `{code}` (the status table's) and whatever the error
 * wants the client to see.
 */
export class AppException extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly data: Record<string, unknown> | null = null,
    /** A narrower `data.code` than the status's, one the status table lists (error-statuses.ts). */
    readonly narrowerCode?: string,
  ) {
    super(message);
    this.name = 'AppException';
  }

  get status(): HttpStatus {
    return httpStatusOf(this.code);
  }

  static notFound(what: string, extra: Record<string, unknown> | null = null): AppException {
    return new AppException(AppErrorCode.NOT_FOUND, `${what} not found`, extra);
  }

  static conflict(message: string, extra: Record<string, unknown> | null = null): AppException {
    return new AppException(AppErrorCode.CONFLICT, message, extra);
  }

  /** A 400 naming the fields at fault, the same shape DTO validation produces. */
  static validation(errors: FieldError[]): AppException {
    return new AppException(AppErrorCode.VALIDATION, 'Validation failed', { errors });
  }
}
