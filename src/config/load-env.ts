import { existsSync } from 'node:fs';

/**
 * Loads `.env` into process.env before any other module is imported: entity column types depend
 * on DATABASE_URL at import time (src/database/column-types.ts), before the configuration is
 * loaded. Variables already set in the environment win.
 */
if (existsSync('.env')) process.loadEnvFile('.env');
