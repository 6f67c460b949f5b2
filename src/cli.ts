import './bootstrap/load-env';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule } from './auth/auth.module';
import { AuthService } from './auth/auth.service';
import { validateEnvOrExit } from './bootstrap/boot';
import { CoreModule } from './core.module';
import { CreateKeyDto } from './auth/dto/create-key.dto';
import { validateOrThrow } from './common/validation/validate';
import { AppException } from './common/errors/app.exception';

@Module({ imports: [CoreModule.forRoot(), AuthModule] })
class CliModule {}

const USAGE = `Usage:
  npm run cli -- create-key --name <user name> --email <email> [--org <org name>]`;

/** Operator commands against the configured database (same env as the service). */
async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (command !== 'create-key') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: 'string' }, email: { type: 'string' }, org: { type: 'string' } },
  });
  validateEnvOrExit();
  process.env.LOG_LEVEL ??= 'warn';
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
  try {
    const dto = await validateOrThrow(CreateKeyDto, {
      user_name: values.name,
      user_email: values.email,
      ...(values.org ? { org_name: values.org } : {}),
    });
    const created = await app.get(AuthService).createKey(dto);
    process.stdout.write(`${JSON.stringify(created, null, 2)}\nStore the api_key now: it is not shown again.\n`);
    return 0;
  } catch (error) {
    const detail = error instanceof AppException ? JSON.stringify(error.data) : String(error);
    process.stderr.write(`create-key failed: ${detail}\n`);
    return 1;
  } finally {
    await app.close();
  }
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
