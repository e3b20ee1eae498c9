/**
 * Work served a chunk per turn of the event loop: `turns(chunk)` returns a scheduler whose tasks run
 * `chunk` at a time, one chunk per setImmediate, in the order they were scheduled. Node runs the
 * microtasks a chunk starts before the next immediate, so what the chunk sets off (promise chains,
 * writes) is bounded too, and the I/O and timers that became ready are served between chunks.
 *
 * Used where one thing fans out to thousands: an event reaching every subscriber of a topic
 * (./events.ts), answers written to every socket of a group and connections ending together
 * (src/http/graphql/fan-out.ts).
 */
import { logger } from "./logger.ts";

export type Schedule = (task: () => void) => void;

export function turns(chunk: number): Schedule {
  const waiting: (() => void)[] = [];
  let head = 0;
  let scheduled = false;
  const serveChunk = () => {
    const end = Math.min(waiting.length, head + chunk);
    for (; head < end; head++) {
      const task = waiting[head]!;
      waiting[head] = undefined as unknown as () => void; // let what it holds go while the rest waits
      try {
        task();
      } catch (e) {
        // A task's failure is its own: the rest of the queue is still served, and the failure is logged.
        logger.error({ err: e }, "a task scheduled in turns failed");
      }
    }
    if (head < waiting.length) {
      // A queue that never empties (a process behind for minutes) drops its served part now and then.
      if (head > 4096 && head * 2 > waiting.length) {
        waiting.splice(0, head);
        head = 0;
      }
      setImmediate(serveChunk);
      return;
    }
    waiting.length = 0;
    head = 0;
    scheduled = false;
  };
  return (task) => {
    waiting.push(task);
    if (!scheduled) {
      scheduled = true;
      setImmediate(serveChunk);
    }
  };
}
