import { LocalCallClaims } from './call-claims';

const first = {
  outcome: {
    status: 'success' as const,
    result: { ok: 1 },
    latency_ms: 5,
    error: null,
    error_class: null,
  },
  log_id: '7',
  status_code: 200,
};

describe(LocalCallClaims.name, () => {
  it('lets one job claim an identity; another sees it in flight, then the first answer', async () => {
    const claims = new LocalCallClaims();
    await expect(claims.claim('id', 'job-1', 10_000)).resolves.toEqual({
      state: 'claimed',
      previous: 'none',
    });
    await expect(claims.claim('id', 'job-2', 10_000)).resolves.toEqual({ state: 'in_flight' });
    // The same job again (redelivered): its own claim.
    await expect(claims.claim('id', 'job-1', 10_000)).resolves.toEqual({
      state: 'claimed',
      previous: 'own',
    });
    await claims.settle('id', 'job-1', first, 60_000);
    await expect(claims.claim('id', 'job-2', 10_000)).resolves.toEqual({ state: 'done', first });
  });

  it('keeps no failed first: the next job claims and learns the first failed', async () => {
    const claims = new LocalCallClaims();
    await claims.claim('id', 'job-1', 10_000);
    await claims.settle('id', 'job-1', null, 60_000);
    await expect(claims.claim('id', 'job-2', 10_000)).resolves.toEqual({
      state: 'claimed',
      previous: 'failed',
    });
  });

  it('frees a claim whose lease ended, and a late answer does not override a newer claim', async () => {
    const claims = new LocalCallClaims();
    await claims.claim('id', 'job-1', 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(claims.claim('id', 'job-2', 10_000)).resolves.toEqual({
      state: 'claimed',
      previous: 'none',
    });
    await claims.settle('id', 'job-1', first, 60_000);
    await expect(claims.claim('id', 'job-3', 10_000)).resolves.toEqual({ state: 'in_flight' });
  });
});
