import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, type Observable } from 'rxjs';
import { envelope, type Envelope } from './envelope';
import { RESPONSE_MESSAGE } from './response-message.decorator';

/** Wraps what a handler returns into `{success: true, message, data}`. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const message =
      this.reflector.getAllAndOverride<string | undefined>(RESPONSE_MESSAGE, [context.getHandler(), context.getClass()]) ??
      'OK';
    return next.handle().pipe(map((data: unknown) => envelope(true, message, data ?? null)));
  }
}
