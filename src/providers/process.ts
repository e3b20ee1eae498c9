/**
 * Running outside programs (yt-dlp, ffmpeg, pocketsphinx, espeak-ng): one place for the timeout,
 * the output cap and the error shape, so no provider hand-rolls child-process handling.
 *
 * Each program runs in a process group of its own (spawned detached): on timeout, abort (a job
 * cancelled, an analysis failed by the sweeper, a shutdown) or output overflow the whole group gets
 * SIGKILL, so helpers the program started (yt-dlp's ffmpeg, a wrapper script's children) never
 * outlive it. When this process exits (a shutdown included), the groups of programs still running
 * are killed too: a job handed back mid-run leaves no program behind.
 *
 * A process that is killed (SIGKILL, the OOM killer, a crash) runs no exit handler, so each program
 * also learns of its parent's death from the kernel: it is started through `setpriv --pdeathsig TERM`
 * (util-linux; Linux's prctl(PR_SET_PDEATHSIG), which Node cannot call itself) running a one-line `sh`
 * that leads the program's group, so that signal arrives when this process dies, however it dies, and
 * the `sh` kills the whole group (the program and everything it started). Chosen over polling
 * `process.ppid` from a watcher: no delay, no extra process, no race with a reused pid; `setpriv`
 * exec()s, so the only process added is the small `sh`. Where `setpriv` is missing (not Linux), programs
 * run as before: ended by the exit handler and their timeouts only.
 *
 * When tracing (docs/operations.md, "Traces") and a span is active (a job's, a request's), each run is
 * a span `exec <program>` whose context the program gets in its environment as `TRACEPARENT` (and
 * `TRACESTATE`), the OpenTelemetry convention for carrying a trace into a child process. Off, no span is
 * active and the program's environment is left as it was.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { basename } from "node:path";
import { context, propagation, SpanStatusCode, trace } from "@opentelemetry/api";
import pLimit from "p-limit";
import { ProviderError } from "../domain/shared/provider-error.ts";
import { installHint, programFound, programOf } from "../config.ts";

export interface RunOptions {
  timeoutMs: number;
  /** Stop the program and fail when stdout grows past this many bytes. */
  maxStdoutBytes?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  stdin?: string | Buffer;
}

export interface RunResult {
  stdout: string;
  /** The same output as bytes, for programs that print binary data (ffmpeg's raw frames). */
  stdoutBytes: Buffer;
  stderr: string;
}

const STDERR_KEEP = 4000;

/** Programs running now, killed with their groups if this process exits first. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) killGroup(child);
});

/**
 * Runs `program args` and resolves with its output when it exits 0. Fails with a ProviderError
 * (named after `provider`) on spawn failure, timeout (retryable), output overflow or non-zero exit.
 */
export function runProgram(provider: string, program: string, args: string[], opts: RunOptions): Promise<RunResult> {
  if (!trace.getActiveSpan()) return run(provider, program, args, opts);
  const name = basename(program);
  return trace
    .getTracer("video-service")
    .startActiveSpan(
      `exec ${name}`,
      { attributes: { "process.executable.name": name, "video_service.provider": provider } },
      async (span) => {
        const carrier: Record<string, string> = {};
        propagation.inject(context.active(), carrier);
        const env: NodeJS.ProcessEnv = { ...(opts.env ?? process.env), TRACEPARENT: carrier.traceparent };
        if (carrier.tracestate) env.TRACESTATE = carrier.tracestate;
        try {
          return await run(provider, program, args, { ...opts, env });
        } catch (e) {
          span.recordException(e as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
          throw e;
        } finally {
          span.end();
        }
      },
    );
}

/**
 * The group leader of a program: on SIGTERM (its parent died: --pdeathsig) it SIGKILLs its whole group; the
 * program runs in the background with the wrapper's stdin (a non-interactive shell would give it /dev/null),
 * and the wrapper exits with the program's status. The group is named by the shell's own pid (`-$$`), not by 0:
 * spawned without `detached` the shell would be in its parent's group, and `kill 0` would end the service with it;
 * `-$$` then names no group and fails.
 */
const GROUP_LEADER = `trap 'kill -KILL -$$' TERM; exec 3<&0; "$@" 0<&3 3<&- & wait $!; exit $?`;

let pdeathsig: boolean | undefined;
/** Whether `setpriv --pdeathsig` can be used here (checked once). */
function parentDeathSignal(): boolean {
  if (pdeathsig === undefined) {
    const probe = spawnSync("setpriv", ["--pdeathsig", "TERM", "--", "true"], { stdio: "ignore", timeout: 5000 });
    pdeathsig = probe.status === 0;
  }
  return pdeathsig;
}

/** The command that runs `program args` ended with this process (see the module's comment), or as it is. */
export function commandEndedWithParent(program: string, args: string[], env: NodeJS.ProcessEnv = process.env): [string, string[]] {
  if (!parentDeathSignal() || !programFound(program, env)) return [program, args];
  return ["setpriv", ["--pdeathsig", "TERM", "--", "sh", "-c", GROUP_LEADER, "sh", program, ...args]];
}

function run(provider: string, program: string, args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const [command, commandArgs] = commandEndedWithParent(program, args, opts.env ?? process.env);
    const child = spawn(command, commandArgs, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group (pgid = its pid), so a kill reaches every process it started.
      detached: true,
    });
    running.add(child);
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    let settled = false;
    const finish = (error: ProviderError | null, result?: RunResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (error) {
        killGroup(child);
        reject(error);
      } else resolve(result!);
    };
    const timer = setTimeout(
      () => finish(new ProviderError(provider, `${program} timed out after ${opts.timeoutMs} ms`, true)),
      opts.timeoutMs,
    );
    const onAbort = () => finish(new ProviderError(provider, `${program} was cancelled`, true));
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();

    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (opts.maxStdoutBytes && outBytes > opts.maxStdoutBytes) {
        finish(new ProviderError(provider, `${program} printed more than ${opts.maxStdoutBytes} bytes`, false));
        return;
      }
      out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err = (err + chunk.toString("utf8")).slice(-STDERR_KEEP);
    });
    child.on("error", (e: NodeJS.ErrnoException) => {
      running.delete(child);
      const reason = e.code === "ENOENT" ? notInstalled(program) : e.message;
      finish(new ProviderError(provider, reason, false, { cause: e }));
    });
    child.on("exit", () => running.delete(child));
    child.on("close", (code, signal) => {
      if (code === 0) {
        const bytes = Buffer.concat(out);
        finish(null, { stdout: bytes.toString("utf8"), stdoutBytes: bytes, stderr: err });
      } else {
        const tail = err.trim().split("\n").slice(-3).join(" | ");
        finish(
          new ProviderError(
            provider,
            `${program} exited with ${code ?? signal}${tail ? `: ${tail}` : ""}`,
            // yt-dlp and friends exit 1 for both "not found" and network trouble; retry is cheap.
            true,
          ),
        );
      }
    });
    child.stdin.on("error", () => undefined);
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/** SIGKILL to the child's whole process group (and to the child itself, should the group be gone). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL"); // ESRCH: the group has no process left
  }
}

const programLimits = new Map<string, ReturnType<typeof pLimit>>();

/**
 * The process-wide bound for one program: every provider that runs it (yt-dlp scrapes, media
 * downloads and searches, through ./ytdlp/runner.ts) takes its turn from the same `n` slots, so
 * YTDLP_CONCURRENCY bounds the whole process rather than each provider or each provider instance.
 */
export function sharedProgramLimit(program: string, n: number) {
  const key = `${program}\u0000${n}`;
  let limit = programLimits.get(key);
  if (!limit) programLimits.set(key, (limit = pLimit(n)));
  return limit;
}

/** A program that could not be started: which, and how to install it (README "Run it"; /readyz lists them too). */
export function notInstalled(program: string): string {
  const key = programOf(program);
  return `${program} is not installed or not on PATH${key ? `: ${installHint(key)}` : ""}`;
}
