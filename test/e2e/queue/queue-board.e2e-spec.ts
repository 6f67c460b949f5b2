import { QUEUES } from '../../../src/contracts/queues';
import { appSuite } from '../../utils/create-test-app';
import { redisConfigured } from '../../utils/test-redis';

const ADMIN = process.env.ADMIN_API_KEY!;
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('Queue dashboard (/admin/queues)', () => {
  const suite = appSuite();

  if (redisConfigured) {
    it('answers 401 with a Basic challenge without credentials, with a wrong password or user', async () => {
      const none = await suite.ctx.http().get('/admin/queues').expect(401);
      expect(none.headers['www-authenticate']).toMatch(/^Basic realm="queues"/);
      await suite.ctx
        .http()
        .get('/admin/queues')
        .set('Authorization', basic('admin', 'wrong-password-123'))
        .expect(401);
      await suite.ctx
        .http()
        .get('/admin/queues')
        .set('Authorization', basic('root', ADMIN))
        .expect(401);
      await suite.ctx
        .http()
        .get('/admin/queues')
        .set('Authorization', `Bearer ${ADMIN}`)
        .expect(401);
      await suite.ctx.http().get('/admin/queues/api/queues').expect(401);
    });

    it('serves the Bull Board page and its API over every queue with admin:<operator key>', async () => {
      const page = await suite.ctx
        .http()
        .get('/admin/queues')
        .set('Authorization', basic('admin', ADMIN))
        .expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toMatch(/<html/i);
      const script = /src="([^"]+\.js)"/.exec(page.text)?.[1];
      expect(script).toBeDefined();
      await suite.ctx
        .http()
        .get(new URL(script!, 'http://x/admin/queues/').pathname)
        .set('Authorization', basic('admin', ADMIN))
        .expect(200);
      const api = await suite.ctx
        .http()
        .get('/admin/queues/api/queues')
        .set('Authorization', basic('admin', ADMIN))
        .expect(200);
      const names = (api.body.queues as { name: string }[]).map((q) => q.name).sort();
      expect(names).toEqual(Object.values(QUEUES).sort());
    });

    it('serves a page that loads nothing from another host (no web fonts, no CDN), nor do its stylesheets', async () => {
      const get = (path: string) =>
        suite.ctx.http().get(path).set('Authorization', basic('admin', ADMIN)).expect(200);
      const page = await get('/admin/queues');
      const external = /(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i;
      expect(page.text).not.toMatch(external);
      expect(page.text).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
      const sheets = [...page.text.matchAll(/<link\b[^>]*href="([^"]+\.css)"/g)].map((m) => m[1]);
      expect(sheets.length).toBeGreaterThan(0);
      for (const sheet of sheets) {
        const css = await get(new URL(sheet, 'http://x/admin/queues/').pathname);
        expect(css.text).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//i);
        expect(css.text).not.toMatch(/@import\s+(?:url\()?\s*["']?(?:https?:)?\/\//i);
      }
    });
  } else {
    it('does not exist in embedded mode (no Redis)', async () => {
      await suite.ctx
        .http()
        .get('/admin/queues')
        .set('Authorization', basic('admin', ADMIN))
        .expect(404);
    });
  }
});
