import { readFile } from 'node:fs/promises';
import pg from 'pg';

/**
 * The CPU time a process has used so far, in seconds (user and kernel), from /proc/<pid>/stat.
 * Rates move by a third between runs on a shared machine; CPU time per request moves far less,
 * so the report shows it for both sides. Clock ticks are 1/100 s on Linux (USER_HZ).
 */
export async function cpuTime(pid: number): Promise<{ user: number; system: number }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; utime is 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(fields[11]) / USER_HZ, system: Number(fields[12]) / USER_HZ };
}
const USER_HZ = 100;

/** This process's CPU time so far, in seconds (user and kernel, all its threads). */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * PostgreSQL's side of the work: the CPU time (s) of the server processes serving the bench's
 * database so far, by process id (connections of the pool; one that closed meanwhile is lost).
 */
export async function serverCpu(url: string | undefined): Promise<Map<number, number>> {
  const used = new Map<number, number>();
  if (url === undefined) return used;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    for (const { pid } of rows) {
      try {
        const { user, system } = await cpuTime(pid);
        used.set(pid, user + system);
      } catch {
        // Gone since the query.
      }
    }
  } finally {
    await client.end();
  }
  return used;
}

export const serverSeconds = (before: Map<number, number>, after: Map<number, number>) => [...after].reduce((sum, [pid, s]) => sum + s - (before.get(pid) ?? 0), 0);
