/**
 * Live connections' ends handled a chunk per turn of the event loop (src/http/graphql/fan-out.ts, `closesInTurn`:
 * graphql-ws sockets and SSE streams, and the TCP sockets under graphql-ws, whose `end` and `close` ws answers): 10,000
 * clients leaving at once must not hold the loop for the time all their cleanups take; other events still come between
 * the chunks. Under graphql-ws the TCP socket's `data` too: a client leaves with a close frame, which ws answers as it
 * reads it.
 */
import { EventEmitter } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";
import WebSocket, * as wsModule from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { closesInTurn } from "../../src/http/graphql/fan-out.js";
import type { RunningApi } from "../../src/main/server.js";
import { newWorkspace, startTestApi, stopAll } from "../helpers/api.js";

describe("connections' ends in turns", () => {
  it("runs `close` listeners a chunk per turn, after what was already waiting; other events at once", async () => {
    const ended: number[] = [];
    const emitters = Array.from({ length: 200 }, (_, i) => {
      const e = new EventEmitter();
      closesInTurn(e);
      e.on("close", () => ended.push(i));
      e.on("data", () => ended.push(-1));
      return e;
    });
    for (const e of emitters) expect(e.emit("close")).toBe(true);
    expect(ended, "nothing ran at the close itself").toEqual([]);
    emitters[0]!.emit("data");
    expect(ended, "other events are not deferred").toEqual([-1]);
    ended.length = 0;
    await nextTurn();
    await nextTurn();
    expect(ended.length, "one chunk in the first turn").toBeGreaterThan(0);
    expect(ended.length, "not all in one turn").toBeLessThan(200);
    for (let i = 0; i < 10 && ended.length < 200; i++) await nextTurn();
    expect(ended).toEqual(Array.from({ length: 200 }, (_, i) => i)); // each once, in order
  });

  it("defers the events it is given, each socket's in the order emitted (a TCP socket's end before its close)", async () => {
    const seen: string[] = [];
    const sockets = Array.from({ length: 100 }, (_, i) => {
      const e = new EventEmitter();
      closesInTurn(e, ["end", "close"]);
      for (const event of ["end", "close", "data"]) e.on(event, () => seen.push(`${i} ${event}`));
      return e;
    });
    for (const e of sockets) e.emit("end");
    for (const e of sockets) e.emit("close");
    sockets[7]!.emit("data");
    expect(seen, "only the event not named ran at once").toEqual(["7 data"]);
    for (let i = 0; i < 20 && seen.length < 201; i++) await nextTurn();
    const at = (s: string) => seen.indexOf(s);
    expect(seen).toHaveLength(201);
    for (let i = 0; i < 100; i++) expect(at(`${i} end`)).toBeLessThan(at(`${i} close`));
  });

  it("runs at once what a turn's task emits (ws's close after its TCP socket's): a connection's chain of ends takes one turn", async () => {
    const seen: string[] = [];
    const tcp = new EventEmitter();
    const ws = new EventEmitter();
    closesInTurn(tcp, ["end", "close"]);
    closesInTurn(ws);
    tcp.on("close", () => {
      seen.push("tcp close");
      ws.emit("close"); // as ws's socketOnClose emits the WebSocket's close
      seen.push("after ws close");
    });
    ws.on("close", () => seen.push("ws close"));
    tcp.emit("close");
    expect(seen).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(seen).toEqual(["tcp close", "ws close", "after ws close"]);
    expect(() => closesInTurn(new EventEmitter(), ["error"])).toThrow(/never in turns/);
  });
});

describe("a socket's data in turns", () => {
  it("is read no faster than it is served: the socket waits paused while its data is queued; every byte, in order", async () => {
    const total = 4 * 1024 * 1024;
    let arrived = 0;
    let served = 0;
    let furthest = 0;
    const received: Buffer[] = [];
    const done = new Promise<void>((resolve) => {
      const server = createServer((socket) => {
        closesInTurn(socket, ["data", "end", "close"]);
        // Counted as Node hands each chunk over (before its turn), and as its listener gets it.
        const queue = socket.emit as (this: Socket, event: string | symbol, ...args: unknown[]) => boolean;
        socket.emit = function (this: Socket, event: string | symbol, ...args: unknown[]) {
          if (event === "data") furthest = Math.max(furthest, ++arrived - served);
          return queue.call(this, event, ...args);
        } as typeof socket.emit;
        let bytes = 0;
        socket.on("data", (chunk: Buffer) => {
          served++;
          received.push(chunk);
          const until = performance.now() + 1; // a busy listener: the reader must not run ahead of it
          while (performance.now() < until);
          if ((bytes += chunk.length) === total) {
            socket.destroy();
            server.close();
            resolve();
          }
        });
      }).listen(0, "127.0.0.1", () => {
        const client = connect((server.address() as AddressInfo).port, "127.0.0.1", () => {
          const data = Buffer.alloc(total);
          for (let i = 0; i < total; i++) data[i] = i % 251;
          client.end(data);
        });
        client.on("error", () => undefined);
      });
    });
    await done;
    const all = Buffer.concat(received);
    expect(all.length).toBe(total);
    expect(all.every((byte, i) => byte === i % 251)).toBe(true);
    expect(furthest, "chunks handed over and not yet served, at most").toBeLessThanOrEqual(2);
  });
});

// One API for the cases that need one (stopAll ends the shared database pool).
let api: RunningApi | undefined;
afterAll(() => api && stopAll(api));
const anApi = async () => (api ??= await startTestApi());

describe("a graphql-ws client's frames, its close frame included", () => {
  it("are read by ws at the socket's turn, not in the poll of the sockets where they arrived", async () => {
    const api = await anApi();
    // ws's Receiver parses what a socket reads (the server's sockets: `_isServer`); the stack says whether it runs
    // from a turn (src/infra/turns.ts, `serveChunk`) or straight from the socket's read.
    const { Receiver } = wsModule as unknown as { Receiver: { prototype: { write: (...a: unknown[]) => boolean } } };
    const write = Receiver.prototype.write;
    const reads: boolean[] = [];
    Receiver.prototype.write = function (this: { _isServer: boolean }, ...args: unknown[]) {
      if (this._isServer) {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 100;
        reads.push(/serveChunk/.test(new Error().stack ?? ""));
        Error.stackTraceLimit = limit;
      }
      return write.apply(this, args);
    };
    try {
      const url = `${api.url.replace(/^http/, "ws")}/graphql`;
      const sockets = await Promise.all(
        Array.from({ length: 20 }, () => {
          const socket = new WebSocket(url, "graphql-transport-ws");
          return new Promise<WebSocket>((resolve, reject) => {
            socket.once("open", () => resolve(socket));
            socket.once("error", reject);
          });
        }),
      );
      const closed = sockets.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
      for (const socket of sockets) socket.send(JSON.stringify({ type: "ping" }));
      for (const socket of sockets) socket.close(1000);
      await Promise.all(closed);
      expect(reads.length, "the server read the pings and the close frames").toBeGreaterThanOrEqual(20);
      expect(reads.filter((inTurn) => !inTurn)).toEqual([]);
    } finally {
      Receiver.prototype.write = write;
    }
  });
});

describe("an SSE stream asked with an Accept of any type (curl's default)", () => {
  it("ends in turns as one asked with `text/event-stream` does", async () => {
    const api = await anApi();
    const { key } = await newWorkspace();
    const answered: { res: ServerResponse; accept: string | undefined }[] = [];
    const spy = (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith("/graphql")) answered.push({ res, accept: req.headers.accept });
    };
    api.server.prependListener("request", spy);
    try {
      for (const accept of ["text/event-stream", "*/*"]) {
        const leave = new AbortController();
        const answer = await fetch(`${api.url}/graphql`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept },
          body: JSON.stringify({ query: "subscription { trackedVideosChanged { change videoId } }" }),
          signal: leave.signal,
        });
        expect(answer.headers.get("content-type"), accept).toMatch(/^text\/event-stream/);
        const reader = answer.body!.getReader();
        await reader.read(); // the first ping: the stream is written
        const { res } = answered.find((a) => a.accept === accept)!;
        // closesInTurn (src/http/graphql/fan-out.ts) gives the response an `emit` of its own.
        expect(Object.hasOwn(res, "emit"), `${accept}: the response's close in turns`).toBe(true);
        expect(Object.hasOwn(res.req, "emit"), `${accept}: the request's close in turns`).toBe(true);
        leave.abort();
        await reader.cancel().catch(() => undefined);
      }
    } finally {
      api.server.off("request", spy);
    }
  });
});
