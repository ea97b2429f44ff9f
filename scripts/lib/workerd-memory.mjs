/**
 * The memory of the workerd that runs the worker under `wrangler dev` (the benches: maps-memory,
 * photo-memory). wrangler starts two workerd processes in the server's process group: a proxy listening
 * on the port asked for, and the runtime (the worker, its queues, local R2 and D1) behind it.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The runtime's pid in `groupId`'s process group (not the proxy listening on `port`), or null. */
export function workerdPid(groupId, port) {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (Number(fields[2]) === groupId && comm.startsWith("workerd") && !args.includes(`--socket-addr=entry=127.0.0.1:${port}`)) return Number(pid);
    } catch {
      /* gone */
    }
  }
  return null;
}

/** { rss, hwm (the peak RSS so far), anon, file } of a process, in MB. */
export function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024, anon: kb("RssAnon") / 1024, file: kb("RssFile") / 1024 };
}
