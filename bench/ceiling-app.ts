import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller()
class PingController {
  @Get('ping')
  ping(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({ controllers: [PingController] })
class CeilingModule {}

/** The framework ceiling: a bare Nest 11 + Express route, no guard, no database, no logging. */
async function main(): Promise<void> {
  const app = await NestFactory.create(CeilingModule, { logger: false });
  await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
  // A clean exit, so that `--cpu-prof` (BENCH_CPU_PROF) writes its profile.
  process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
  process.send?.('ready');
}

void main();
