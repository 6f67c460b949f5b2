import { HttpModule, HttpService } from '@nestjs/axios';
import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { OutboundHttpClient } from './outbound-http.client';
import { UrlGuard } from './url-guard';

/** Reads `webhook.allowPrivateNetworks` whether the config layer gives a boolean or the raw env string. */
export function allowPrivateNetworksFrom(config: ConfigService): boolean {
  const value: unknown = config.get('webhook.allowPrivateNetworks');
  return value === true || value === 'true';
}

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
  imports: [HttpModule.register({})],
  providers: [
    {
      provide: OutboundHttpClient,
      inject: [ConfigService, HttpService],
      useFactory: (config: ConfigService, http: HttpService) =>
        new OutboundHttpClient({ allowPrivateNetworks: allowPrivateNetworksFrom(config) }, http),
    },
    {
      provide: UrlGuard,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        new UrlGuard({ allowPrivateNetworks: allowPrivateNetworksFrom(config) }),
    },
    OutboundHttpShutdown,
  ],
  exports: [OutboundHttpClient, UrlGuard],
})
export class OutboundHttpModule {}
