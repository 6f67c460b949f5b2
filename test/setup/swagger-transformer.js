// Runs the @nestjs/swagger CLI plugin in Jest (ts-transformer.js), so tests see the same OpenAPI metadata `nest build` produces.
const transformer = require('@nestjs/swagger/plugin');

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (cs) =>
  transformer.before(
    { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts', '.entity.ts'] },
    cs.program,
  );
