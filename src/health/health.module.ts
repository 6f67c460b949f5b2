import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthStatus } from './health-status';
import { HealthController } from './health.controller';
import { RedisHealthIndicator } from './redis.health';
import { ReplicaHealth } from './replica.health';

@Module({
  imports: [TerminusModule],
  controllers: [HealthController],
  providers: [RedisHealthIndicator, ReplicaHealth, HealthStatus],
})
export class HealthModule {}
