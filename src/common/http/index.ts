export * from './outbound-http.types';
export { OutboundHttpClient, parseJson } from './outbound-http.client';
export { OutboundHttpModule, allowPrivateNetworksFrom } from './outbound-http.module';
export {
  UrlGuard,
  assertPublicUrl,
  checkPublicUrl,
  isPublicAddress,
  type UrlGuardOptions,
} from './url-guard';
export { signStandardWebhook, standardWebhookHeaders, newWebhookId } from './webhook-signature';
export { IsHttpHeaders, headerRecordProblem } from './header-validators';
