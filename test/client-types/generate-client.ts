import { writeFileSync } from 'node:fs';
import { loadConfig } from '#app/config';
import { createHttpApp } from '../../apps/api/src/http-app.js';
import { createOpenApiDocument } from '../../apps/api/src/openapi/document.js';
import { CLIENT_SCHEMA_FILE, clientSchemaSource } from './client-schema.js';

/**
 * `npm run client:generate`: builds the real app (as write-document.js does: in-memory SQLite,
 * no demo data, no Redis command), takes the OpenAPI document it serves and writes the typed
 * client's schema from it. Run it after any change to a route, a parameter or a response.
 */
async function main(): Promise<void> {
  const config = loadConfig(undefined, {
    overrides: { DATABASE_URL: 'sqlite::memory:', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
  });
  const app = await createHttpApp(config, { shutdownHooks: false });
  try {
    writeFileSync(CLIENT_SCHEMA_FILE, await clientSchemaSource(createOpenApiDocument(app)));
  } finally {
    await app.close();
  }
  console.log(`Wrote ${CLIENT_SCHEMA_FILE} from the served OpenAPI document`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
