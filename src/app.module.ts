import { Module, ValidationPipe, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ActivityLogModule } from './activity-log/activity-log.module';
import { AssistantModule } from './assistant/assistant.module';
import { AssistantRuntimeModule } from './assistant-runtime/assistant-runtime.module';
import { AuditModule } from './audit/audit.module';
import { ApiKeyGuard } from './auth/api-key.guard';
import { ApiThrottlerGuard } from './auth/api-throttler.guard';
import { AuthModule } from './auth/auth.module';
import { ThrottleModule } from './common/throttle.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { AppException } from './common/errors/app.exception';
import { RequestInterceptor, WRITE_INTERCEPTOR } from './common/pipeline/request.interceptor';
import { VALIDATOR_OPTIONS } from './common/validation/validate';
import { flattenValidationErrors } from './common/validation/validation-errors';
import { loadAppConfig } from './config/app-config';
import type { AppRole } from './config/env.validation';
import { ConfigBundleModule } from './config-bundle/config-bundle.module';
import { McpModule } from './mcp/mcp.module';
import { CoreModule } from './core.module';
import { EventSubscriptionModule } from './event-subscription/event-subscription.module';
import { HealthModule } from './health/health.module';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { InboundContextModule } from './inbound-context/inbound-context.module';
import { LookupModule } from './lookup/lookup.module';
import { ReplayModule } from './replay/replay.module';
import { RolloutModule } from './rollout/rollout.module';
import { SecretModule } from './secret/secret.module';
import { ToolModule } from './tool/tool.module';
import { JOB_MODULES } from './job-modules';

export interface AppModuleOptions {
  /** `all` (default) serves HTTP and consumes jobs; `api` only serves HTTP (needs Redis). */
  role?: AppRole;
}

@Module({})
export class AppModule {
  static register(options: AppModuleOptions = {}): DynamicModule {
    const { app, queue } = loadAppConfig();
    const role = options.role ?? app.role;
    const consumesJobs = role !== 'api' || !queue.redis;
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot(),
        ThrottleModule,
        AuthModule,
        AssistantModule,
        ToolModule,
        AssistantRuntimeModule,
        InboundContextModule,
        LookupModule,
        ActivityLogModule,
        SecretModule,
        ReplayModule,
        RolloutModule,
        HealthModule,
        IdempotencyModule,
        AuditModule,
        ConfigBundleModule,
        McpModule,
        EventSubscriptionModule,
        ...(consumesJobs ? JOB_MODULES : []),
      ],
      providers: [
        // Order matters: rate-limit first (also limits key guessing by IP), then authenticate; the
        // interceptor, which reads the body, runs only for requests both guards let through.
        { provide: APP_GUARD, useClass: ApiThrottlerGuard },
        { provide: APP_GUARD, useExisting: ApiKeyGuard },
        { provide: APP_INTERCEPTOR, useClass: RequestInterceptor },
        // Called by RequestInterceptor on writes once the body is read, so the key's fingerprint covers it.
        { provide: WRITE_INTERCEPTOR, useExisting: IdempotencyInterceptor },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        {
          provide: APP_PIPE,
          useValue: new ValidationPipe({
            ...VALIDATOR_OPTIONS,
            transform: true,
            transformOptions: { enableImplicitConversion: false },
            exceptionFactory: (errors) => AppException.validation(flattenValidationErrors(errors)),
          }),
        },
      ],
    };
  }
}
