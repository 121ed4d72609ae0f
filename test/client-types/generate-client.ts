import { writeFileSync } from 'node:fs';
import { loadConfig } from '#app/config';
import { createHttpApp } from '../../apps/api/src/http-app.js';
import { createOpenApiDocument } from '../../apps/api/src/openapi/document.js';
import {
  CLIENT_PARAMETERS_FILE,
  CLIENT_SCHEMA_FILE,
  clientParametersSource,
  clientSchemaSource,
} from './client-schema.js';

/**
 * `npm run client:generate`: builds the real app (as write-document.js does: in-memory SQLite,
 * no demo data, no Redis command), takes the OpenAPI document it serves and writes the typed
 * client's schema and the GET routes' parameters from it. Run it after any change to a route, a parameter or a response.
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, {
    overrides: { DATABASE_URL: 'sqlite::memory:', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
  });
  const app = await createHttpApp(config, { shutdownHooks: false });
  try {
    const document = createOpenApiDocument(app);
    writeFileSync(CLIENT_SCHEMA_FILE, await clientSchemaSource(document));
    writeFileSync(CLIENT_PARAMETERS_FILE, clientParametersSource(document as never));
  } finally {
    await app.close();
  }
  console.log(`Wrote ${CLIENT_SCHEMA_FILE} and ${CLIENT_PARAMETERS_FILE} from the served document`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
