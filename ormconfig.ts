import './src/config/load-env';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { appDataSourceOptions } from './src/app-data-source';

/** The DataSource the TypeORM CLI uses: `npm run migration:generate -- src/database/migrations/<driver>/<Name>`. */
export default new DataSource(appDataSourceOptions());
