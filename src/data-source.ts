import './config/load-env';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { appDataSourceOptions } from './app-data-source';

/**
 * The DataSource of the compiled service, for the TypeORM CLI where there is no TypeScript (the
 * image): `npm run migration:run:prod` = `typeorm migration:run -d dist/data-source.js`.
 */
export default new DataSource(appDataSourceOptions());
