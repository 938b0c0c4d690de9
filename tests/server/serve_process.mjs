// Starting `attend serve` from a Node test: its port read from the line it prints once it listens.
import { spawn } from 'node:child_process';

// Resolves { child, url } once the server listens on a free port of 127.0.0.1.
export function startServer(cli, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cli, ['serve', ...args, '--port', '0'], { stdio: ['ignore', 'inherit', 'pipe'] });
    let log = '';
    child.stderr.on('data', (chunk) => {
      log += chunk;
      process.stderr.write(chunk);
      const listening = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(log);
      if (listening) resolve({ child, url: listening[1] });
    });
    child.on('exit', (code) => reject(new Error(`attend serve exited with ${code} before listening:\n${log}`)));
  });
}

// Sends SIGTERM and resolves the exit code.
export function stopServer(child) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}
