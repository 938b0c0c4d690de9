// Runs scripts/serve.mjs on a free port of 127.0.0.1 for a test.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { REPO_ROOT } from './environment.mjs';

export async function startServer(root) {
  const child = spawn(process.execPath, [join(REPO_ROOT, 'scripts/serve.mjs'), '--port', '0', '--root', root], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const origin = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (match) resolve(match[0]);
    });
    child.once('exit', (code) => reject(new Error(`serve.mjs exited (${code}) before printing its URL: ${output}`)));
  });
  return {
    origin,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;  // ended already (killed: signalCode)
      child.kill();
      await once(child, 'exit');
    },
  };
}
