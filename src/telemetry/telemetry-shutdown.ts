import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { shutdownTelemetry } from './telemetry';

/** The graceful shutdown's last step: the spans still batched are exported before the process ends. */
@Injectable()
export class TelemetryShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await shutdownTelemetry();
  }
}
