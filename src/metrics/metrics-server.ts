import { createServer, type Server } from 'node:http';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { metricsHandler } from './metrics-endpoint';
import { MetricsService } from './metrics.service';

/** The worker serves no HTTP but its own `GET /metrics`, on `METRICS_PORT` (unset: none). */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;

  constructor(
    private readonly config: ConfigService<AppConfig, true>,
    private readonly metrics: MetricsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.get('app.metricsPort', { infer: true });
    if (port === null || port === undefined) return;
    const handle = metricsHandler(
      this.metrics,
      this.config.get('app.adminApiKey', { infer: true }) ?? null,
    );
    const server = createServer((req, res) => {
      if (req.method === 'GET' && (req.url === '/metrics' || req.url?.startsWith('/metrics?')))
        return handle(req, res);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, resolve);
    });
    this.server = server;
    const address = server.address();
    this.logger.log(
      `Metrics on port ${typeof address === 'object' && address ? address.port : port}`,
    );
  }

  /** The bound port (METRICS_PORT=0 picks a free one). */
  get port(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
