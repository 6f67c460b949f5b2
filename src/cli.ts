import './config/load-env';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AuthModule } from './auth/auth.module';
import { AuthService } from './auth/auth.service';
import { loadAppConfigOrExit } from './bootstrap/boot';
import { CoreModule } from './core.module';
import { CreateKeyDto } from './auth/dto/create-key.dto';
import { validateOrThrow } from './common/validation/validate';
import { AppException, type FieldError } from './common/errors/app.exception';
import { problemLines } from './bootstrap/cli-messages';
import { subscriptionSecrets } from './event-subscription/event-subscription-rekey';
import { NEW_KEY_VARIABLE, runSecretRekey } from './secret/secret-rekey';
import {
  BUNDLE_COMMANDS,
  BUNDLE_USAGE,
  type BundleCommand,
  runBundleCommand,
} from './config-bundle/bundle-cli';

@Module({ imports: [CoreModule.forRoot(), AuthModule] })
class CliModule {}

const USAGE = `Usage:
  npm run cli -- create-key --name <user name> --email <email> [--org <org name>] [--scopes config,runtime]

  --scopes  comma-separated: config (management routes, the default), runtime (GET /assistant/runtime/:id)

  npm run cli -- secrets:rekey
            re-encrypts every stored secret value from SECRETS_ENCRYPTION_KEY (or the embedded
            key file) to ${NEW_KEY_VARIABLE}, in one transaction; a second run changes nothing

${BUNDLE_USAGE}`;

/** The option each field of `CreateKeyDto` comes from. */
const OPTION_OF_FIELD: Record<string, string> = {
  user_name: '--name',
  user_email: '--email',
  org_name: '--org',
  scopes: '--scopes',
};

/** The `{field, message}` list of a validation failure, or null for any other error. */
function validationErrorsOf(error: AppException): FieldError[] | null {
  const errors = (error.data as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : null;
}

function parseCreateKey(args: string[]) {
  return parseArgs({
    args,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      org: { type: 'string' },
      scopes: { type: 'string' },
    },
  });
}

/** Operator commands against the configured database (same env as the service). */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, ...rest] = args;
  if ((BUNDLE_COMMANDS as readonly string[]).includes(command))
    return runBundleCommand(command as BundleCommand, rest, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  if (command === 'secrets:rekey') {
    if (!rest.length) return rekey();
    process.stderr.write(`secrets:rekey takes no options (the keys come from the env)\n${USAGE}\n`);
    return 2;
  }
  if (command !== 'create-key') {
    process.stderr.write(`${command ? `Unknown command: ${command}\n` : ''}${USAGE}\n`);
    return 2;
  }
  return createKey(rest);
}

/** `create-key`: a user and their first API key. */
async function createKey(rest: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCreateKey>;
  try {
    parsed = parseCreateKey(rest);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const { values } = parsed;
  // Checked before anything connects: a mistyped option needs no database to be reported.
  let dto: CreateKeyDto;
  try {
    dto = await validateOrThrow(CreateKeyDto, {
      user_name: values.name,
      user_email: values.email,
      ...(values.org ? { org_name: values.org } : {}),
      ...(values.scopes !== undefined
        ? {
            scopes: values.scopes
              .split(',')
              .map((scope) => scope.trim())
              .filter(Boolean),
          }
        : {}),
    });
  } catch (error) {
    const errors = error instanceof AppException ? validationErrorsOf(error) : null;
    if (!errors) throw error;
    const lines = problemLines(errors, OPTION_OF_FIELD);
    process.stderr.write(`create-key failed:\n${lines.map((l) => `  ${l}\n`).join('')}${USAGE}\n`);
    return 2;
  }
  loadAppConfigOrExit();
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
  try {
    const created = await app.get(AuthService).createKey(dto);
    process.stdout.write(
      `${JSON.stringify(created, null, 2)}\nStore the api_key now: it is not shown again.\n`,
    );
    return 0;
  } catch (error) {
    const detail = error instanceof AppException ? JSON.stringify(error.data) : String(error);
    process.stderr.write(`create-key failed: ${detail}\n`);
    return 1;
  } finally {
    await app.close();
  }
}

/** `secrets:rekey`: the store under a new encryption key (docs/api.md "Secrets"). Prints counts only. */
async function rekey(): Promise<number> {
  const config = loadAppConfigOrExit();
  const app = await NestFactory.createApplicationContext(CoreModule.forRoot(), {
    logger: ['error', 'warn'],
  });
  try {
    const lines = await runSecretRekey(app.get(DataSource), config, process.env[NEW_KEY_VARIABLE], [
      subscriptionSecrets,
    ]);
    process.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return 0;
  } catch (error) {
    process.stderr.write(
      `secrets:rekey failed: ${error instanceof Error ? error.message : 'unknown error'}\n`,
    );
    return 1;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
