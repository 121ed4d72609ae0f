import { Logger } from '@nestjs/common';
import { loadConfig } from '#app/config';
import { createHttpApp } from './http-app.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApp(config);
  await app.listen(config.http.port, config.http.host);
  new Logger('Api').log(`listening on http://${config.http.host}:${config.http.port}/v1`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
