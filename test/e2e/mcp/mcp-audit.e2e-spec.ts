import { configApi } from '../../api/config-api';
import { dataOf } from '../../api/envelope';
import { callTool, suiteMcpClients } from '../../api/mcp-client';
import { openingHoursBundle } from '../../fixtures/config-bundle';
import { newUserBody } from '../../fixtures/user';
import { appSuite } from '../../utils/create-test-app';

interface Entry {
  action: string;
  resource_type: string;
  resource_id: string;
  actor: { user_id: string | null; api_key_id: string | null };
  request_id: string | null;
}

const bundle = openingHoursBundle(true);

/** An `apply_config` through MCP is audited as a REST apply is: the actor is the key that called. */
describe('POST /mcp apply_config: audit actor (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });
  const mcp = suiteMcpClients(() => suite.ctx.app, 'e2e-audit');

  it("writes entries naming the user, the API key the agent used (not the user's other key) and the MCP request", async () => {
    const email = (
      await dataOf<{ user_email: string }>(
        'GET /auth/check-key',
        suite.ctx.http().get('/auth/check-key').set(suite.alice.auth),
      )
    ).user_email;
    // A second key of the same user: the entries must name this one, the one the agent holds.
    const second = await dataOf<{ api_key: string; api_key_id: string; user_id: string }>(
      'POST /auth/create-key',
      suite.ctx
        .http()
        .post('/auth/create-key')
        .set('Authorization', `Bearer ${process.env.ADMIN_API_KEY}`)
        .send({ ...newUserBody(), user_email: email }),
    );
    expect(second.user_id).toBe(suite.alice.userId);
    const { revision } = await configApi(suite.ctx, suite.alice).exported();

    const requestId = `mcp-audit-${Date.now()}`;
    const client = await mcp.connect(second.api_key, { 'X-Request-Id': requestId });
    const applied = await callTool(client, 'apply_config', { bundle, base_revision: revision });
    expect(applied).toMatchObject({ isError: false, answer: { applied: 2 } });

    const entries = (
      await dataOf<{ items: Entry[] }>(
        'GET /audit',
        suite.ctx.http().get('/audit').query({ limit: 100 }).set(suite.alice.auth),
      )
    ).items.filter(
      (entry) => entry.resource_type === 'tool' || entry.resource_type === 'assistant',
    );
    expect(entries.map((entry) => `${entry.resource_type}:${entry.action}`).sort()).toEqual(
      expect.arrayContaining(['assistant:create', 'tool:create']),
    );
    for (const entry of entries) {
      expect(entry.actor).toEqual({ user_id: suite.alice.userId, api_key_id: second.api_key_id });
      expect(entry.request_id).toBe(requestId);
    }
  });
});
