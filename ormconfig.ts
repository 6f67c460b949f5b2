import './src/config/load-env';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source-options';

/** The DataSource the TypeORM CLI uses: `npm run migration:generate -- src/database/migrations/<driver>/<Name>`. */
export default new DataSource(dataSourceOptions());
