import { signStandardWebhook, standardWebhookHeaders } from './webhook-signature';

describe(signStandardWebhook.name, () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';

  it('matches the Standard Webhooks specification vector', () => {
    expect(signStandardWebhook(secret, id, 1614265330, body)).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('changes when any signed part changes', () => {
    const reference = signStandardWebhook(secret, id, 1614265330, body);
    expect(signStandardWebhook(secret, id, 1614265331, body)).not.toBe(reference);
    expect(signStandardWebhook(secret, `${id}x`, 1614265330, body)).not.toBe(reference);
    expect(signStandardWebhook(secret, id, 1614265330, '{"test":2432232314}')).not.toBe(reference);
  });

  it('signs once per secret, space-separated, for rotation', () => {
    const other = 'whsec_' + Buffer.from('another-secret-key').toString('base64');
    const headers = standardWebhookHeaders([secret, other], id, 1614265330, body);
    expect(headers).toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': `v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= ${signStandardWebhook(other, id, 1614265330, body)}`,
    });
  });
});
