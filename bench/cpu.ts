import { readFile } from 'node:fs/promises';

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
