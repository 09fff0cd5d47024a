/** What the bench's parts share: starting a server child that prints its ports, and medians. */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** Forks `file` (relative to bench/) and waits for the line of ports it prints once listening. */
export async function startChild(file: string, args: string[] = []): Promise<{ process: ChildProcess; ports: number[] }> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), args, { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  return { process: child, ports: line.toString().trim().split(' ').map(Number) };
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
