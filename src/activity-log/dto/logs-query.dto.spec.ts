import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { flattenValidationErrors } from '../../common/validation/validation-errors';
import { VALIDATOR_OPTIONS } from '../../common/validation/validate';
import { LogsQueryDto } from './logs-query.dto';

/** Query strings arrive as strings; the global pipe transforms without implicit conversion. */
async function check(query: Record<string, unknown>) {
  const dto = plainToInstance(LogsQueryDto, query, { enableImplicitConversion: false });
  const errors = flattenValidationErrors(await validate(dto, VALIDATOR_OPTIONS));
  return { dto, fields: errors.map((e) => e.field) };
}

describe(LogsQueryDto.name, () => {
  it('defaults page 1 and limit 50', async () => {
    const { dto, fields } = await check({});
    expect(fields).toEqual([]);
    expect(dto.page).toBe(1);
    expect(dto.limit).toBe(50);
  });

  it.each([
    [{ page: '1', limit: '1' }, 1, 1],
    [{ page: '7', limit: '100' }, 7, 100],
  ])('accepts %j', async (query, page, limit) => {
    const { dto, fields } = await check(query);
    expect(fields).toEqual([]);
    expect([dto.page, dto.limit]).toEqual([page, limit]);
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'abc' }, 'page'],
    [{ page: '' }, 'page'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '2.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ log_type: 'sms' }, 'log_type'],
    [{ log_type: ['tool_call', 'end_call_webhook'] }, 'log_type'],
    [{ status: 'ok' }, 'status'],
    [{ assistant_id: 'not-a-uuid' }, 'assistant_id'],
    [{ room_name: '' }, 'room_name'],
    [{ room_name: 'x'.repeat(256) }, 'room_name'],
    [{ from: 'yesterday' }, 'from'],
    [{ from: '2025-02-30T00:00:00Z' }, 'from'],
    [{ to: '2025-01-01T25:00:00Z' }, 'to'],
    [{ to: '1700000000' }, 'to'],
    [{ unknown: 'x' }, 'unknown'],
  ])('rejects %j on %s', async (query, field) => {
    const { fields } = await check(query);
    expect(fields).toContain(field);
  });

  it('accepts every filter together', async () => {
    const { fields } = await check({
      log_type: 'end_call_webhook',
      status: 'error',
      assistant_id: '7f3b3c8e-2a0e-4a59-9d1e-3f0c2b9a1d11',
      room_name: 'room-1',
      from: '2025-01-01',
      to: '2025-01-31T23:59:59.999+05:30',
    });
    expect(fields).toEqual([]);
  });
});
