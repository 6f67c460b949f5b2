import { existsSync } from 'node:fs';

/**
 * Loads `.env` into process.env before any other module is imported: entity column types depend
 * on DATABASE_URL at import time (src/database/column-types.ts), earlier than ConfigModule reads
 * the file. Variables already set in the environment win, as with ConfigModule.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
