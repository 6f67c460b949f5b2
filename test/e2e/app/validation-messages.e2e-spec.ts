import { appSuite } from '../../utils/create-test-app';

type FieldError = { field: string; message: string };

/** A 400 names each field at fault once, with the first rule it breaks. */
describe('validation messages (e2e)', () => {
  const suite = appSuite({ users: ['user'] });

  it.each([
    ['/assistant/create', {}],
    ['/assistant/create', { assistant_name: 42, assistant_prompt: '' }],
    ['/tool/create', { tool_name: 'Not A Name!', tool_execution_type: 'nope' }],
    ['/secret/create', { secret_name: 'lower', value: '' }],
    ['/secret/create', { secret_name: 7, value: 7 }],
    [
      '/inbound_context_strategy/create',
      {
        strategy_name: 5,
        strategy_type: 'webhook',
        strategy_config: { url: 5, timeout_seconds: 'x' },
      },
    ],
    [
      '/tool/create',
      {
        tool_name: 'ok_name',
        tool_description: 'd',
        tool_execution_type: 'webhook',
        tool_execution_config: { url: 'https://example.com', timeout: 'x', headers: 5 },
        tool_parameters: 'x',
      },
    ],
    ['/inbound/assign', { assistant_id: 5, service: 5, inbound_config: { phone_number: 5 } }],
  ])('POST %s %j: one message per field', async (path, body) => {
    const res = await suite.ctx.http().post(path).set(suite.user.auth).send(body).expect(400);
    const errors = res.body.data.errors as FieldError[];
    expect(errors.length).toBeGreaterThan(0);
    const fields = errors.map((error) => error.field);
    expect(fields).toEqual([...new Set(fields)]);
  });
});
