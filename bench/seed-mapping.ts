import { api } from './lib';

/** A webhook strategy on `webhookUrl` and a number mapped to `assistantId` through it; its id. */
export async function seedMapping(
  url: string,
  key: string,
  assistantId: string,
  webhookUrl: string,
): Promise<string> {
  const strategy = await api<{ strategy_id: string }>(
    url,
    'POST',
    '/inbound_context_strategy/create',
    key,
    {
      strategy_name: 'Bench CRM',
      strategy_type: 'webhook',
      strategy_config: { url: webhookUrl, timeout_seconds: 2 },
    },
  );
  const mapping = await api<{ inbound_id: string }>(url, 'POST', '/inbound/assign', key, {
    assistant_id: assistantId,
    inbound_context_strategy_id: strategy.strategy_id,
    service: 'exotel',
    inbound_config: { phone_number: `+9${Date.now()}`.slice(0, 14) },
  });
  return mapping.inbound_id;
}
