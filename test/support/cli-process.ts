import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The command-line tool as an operator runs it: `node dist/apps/worker/src/cli.js <command>`. */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI_ENTRY = 'dist/apps/worker/src/cli.js';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one command with the test's environment (and `env` over it), from the repository's root
 * unless `cwd` says where; killed after `killAfterMs`.
 */
export function runCli(
  environment: Record<string, string | undefined>,
  args: string[],
  env: Record<string, string> = {},
  { killAfterMs = 30_000, cwd = ROOT }: { killAfterMs?: number; cwd?: string } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, CLI_ENTRY), ...args], {
      cwd,
      env: { ...process.env, ...environment, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** For assertion messages: what the command said. */
export const said = (result: CliResult) =>
  `exit ${result.code}/${result.signal}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
