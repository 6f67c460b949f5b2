import { Test } from '@nestjs/testing';
import { getRepositoryToken } from '@nestjs/typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { AppException } from '../common/errors/app.exception';
import { AssistantVersionEntity } from './assistant-version.entity';
import { AssistantVersionService } from './assistant-version.service';
import { AssistantService } from './assistant.service';

// Publishing (the next number, the tools, the retries) is AssistantPublishService's spec.
async function setup() {
  const versions = { findOneBy: jest.fn().mockResolvedValue(null) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      { provide: AuditTrail, useValue: { record: jest.fn() } },
      AssistantVersionService,
      { provide: getRepositoryToken(AssistantVersionEntity), useValue: versions },
      { provide: AssistantService, useValue: {} },
    ],
  }).compile();
  return { service: moduleRef.get(AssistantVersionService), versions };
}

describe(AssistantVersionService.name, () => {
  it('reports a version that is not the caller’s as not found', async () => {
    const { service, versions } = await setup();

    await expect(service.find('u-2', 'a-1', 1)).rejects.toBeInstanceOf(AppException);
    expect(versions.findOneBy).toHaveBeenCalledWith({
      assistant_id: 'a-1',
      user_id: 'u-2',
      version: 1,
    });
  });
});
