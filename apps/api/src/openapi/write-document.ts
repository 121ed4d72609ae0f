import { writeFileSync } from 'node:fs';
import { loadConfig } from '#app/config';
import { createHttpApp } from '../http-app.js';
import { createOpenApiDocument } from './document.js';

/**
 * Writes the OpenAPI document to a file without serving it: `node
 * dist/apps/api/src/openapi/write-document.js <file>` (what `npm run lint:openapi` lints).
 * It builds the real app, so the document is the one `GET /v1/api/openapi.json` serves, on a
 * throwaway in-memory SQLite database and without demo data. Redis need not answer: nothing
 * here sends it a command.
 */
async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: write-document.js <output file>');
  const config = loadConfig(undefined, {
    overrides: { DATABASE_URL: 'sqlite::memory:', DEMO_DATA: 'false', LOG_LEVEL: 'warn' },
  });
  const app = await createHttpApp(config, { shutdownHooks: false });
  try {
    writeFileSync(file, `${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app.close();
  }
  console.log(`Wrote the OpenAPI document to ${file}`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
