import { HttpModule, HttpService } from '@nestjs/axios';
import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { OutboundHttpClient } from './outbound-http.client';
import { UrlGuard } from './url-guard';

@Injectable()
class OutboundHttpShutdown implements OnApplicationShutdown {
  constructor(@Inject(OutboundHttpClient) private readonly client: OutboundHttpClient) {}
  onApplicationShutdown(): void {
    this.client.destroy();
  }
}

/** The outbound HTTP client and the save-time URL guard, configured once for the whole process. */
@Global()
@Module({
  imports: [HttpModule],
  providers: [
    {
      provide: OutboundHttpClient,
      inject: [ConfigService, HttpService],
      useFactory: (config: ConfigService<AppConfig, true>, http: HttpService) =>
        new OutboundHttpClient(
          { allowPrivateNetworks: config.get('webhook.allowPrivateNetworks', { infer: true }) },
          http,
        ),
    },
    {
      provide: UrlGuard,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        new UrlGuard({
          allowPrivateNetworks: config.get('webhook.allowPrivateNetworks', { infer: true }),
        }),
    },
    OutboundHttpShutdown,
  ],
  exports: [OutboundHttpClient, UrlGuard],
})
export class OutboundHttpModule {}
