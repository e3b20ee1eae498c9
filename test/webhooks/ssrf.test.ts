/**
 * Outbound delivery refuses non-public targets when WEBHOOK_ALLOW_PRIVATE is off (the default): the
 * URL's scheme and IP literals before anything else, and the address each attempt resolves, in the
 * socket's own lookup, so the connection goes to the address that was checked (no DNS rebinding
 * between a check and the connect). A loopback server counts connections: none may arrive.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import type { LookupAddress } from "node:dns";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.WEBHOOK_SECRET_KEY = "test-only-webhook-secret-key-0123456789";
  process.env.WEBHOOK_ALLOW_PRIVATE = "false";
});

import { isPublicAddress, targetProblem } from "../../src/domain/shared/public-targets.js";
import { HttpWebhookSender } from "../../src/providers/webhooks/http.js";
import { newWorkspace, stopAll } from "../helpers/api.js";
import { createWebhook, listDeliveries } from "../../src/domain/webhooks/service.js";
import { deliverWebhook } from "../../src/domain/webhooks/delivery.js";
import { emitWorkspaceEvents } from "../../src/domain/webhooks/outbox.js";
import { startReceiver, type Receiver } from "./receiver.js";

let tcp: Server;
let port: number;
let connections = 0;
let receiver: Receiver;
beforeAll(async () => {
  tcp = createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  port = (tcp.address() as AddressInfo).port;
  receiver = await startReceiver();
});
afterAll(async () => {
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
  await receiver.close();
  await stopAll();
});

/** A resolver answering `answers` in turn (the last one repeats), counting its calls. */
function resolverOf(...answers: string[][]) {
  let calls = 0;
  const resolve = (_host: string, _opts: unknown, cb: (err: NodeJS.ErrnoException | null, a: LookupAddress[]) => void) => {
    const list = answers[Math.min(calls++, answers.length - 1)]!;
    setImmediate(() =>
      cb(
        null,
        list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      ),
    );
  };
  return { resolve, calls: () => calls };
}

const request = (url: string) => ({ url, body: "{}", headers: { "content-type": "application/json" }, timeoutMs: 800 });

describe("which addresses are public", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["172.32.0.1", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["127.255.0.9", false],
    ["0.0.0.0", false],
    ["10.20.30.40", false],
    ["172.16.5.4", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["192.0.2.10", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::", false],
    ["::1", false],
    ["fe80::1", false],
    ["fd00:ec2::254", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:0:7f00:1", false],
    ["::127.0.0.1", false],
    ["fe80::1%eth0", false],
    ["64:ff9b::7f00:1", false],
    ["2001:db8::1", false],
    ["ff02::1", false],
    ["hooks.example.com", false],
    // IANA's special-purpose ranges (ipaddr.js): benchmarking, 6to4 relay, site-local, local-use NAT64, discard, ORCHIDv2
    ["198.18.0.1", false],
    ["192.88.99.1", false],
    ["fec0::1", false],
    ["64:ff9b:1::a00:1", false],
    ["100::1", false],
    ["2001:20::1", false],
    // Forms ipaddr.js would read but a resolver never answers are not addresses here.
    ["127.1", false],
    ["0x7f.0.0.1", false],
    // An IPv4-compatible address is as public as the IPv4 address it carries.
    ["::8.8.8.8", true],
  ])("%s → %s", (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  it("URL checks before resolving", () => {
    expect(targetProblem("https://hooks.example.com/x", false)).toBeNull();
    expect(targetProblem("http://hooks.example.com/x", false)).toMatch(/https/);
    expect(targetProblem("https://127.0.0.1/x", false)).toMatch(/non-public/);
    expect(targetProblem("https://[::1]:8443/x", false)).toMatch(/non-public/);
    expect(targetProblem("https://localhost/x", false)).toMatch(/public host/);
    expect(targetProblem("http://127.0.0.1:9/x", true)).toBeNull();
    expect(targetProblem("ftp://127.0.0.1/x", true)).toMatch(/http or https/);
  });
});

describe("the sender with WEBHOOK_ALLOW_PRIVATE off", () => {
  it("refuses http and non-public IP literals without resolving or connecting", async () => {
    const r = resolverOf(["127.0.0.1"]);
    const sender = new HttpWebhookSender({ resolve: r.resolve });
    for (const url of [
      `http://hooks.example.com:${port}/`,
      `https://127.0.0.1:${port}/`,
      `https://[::1]:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://169.254.169.254/latest`,
    ]) {
      const a = await sender.send(request(url));
      expect(a, url).toMatchObject({ status: null, error: expect.stringMatching(/^refused/) });
    }
    expect(r.calls()).toBe(0);
    expect(connections).toBe(0);
  });

  it("refuses a host that resolves to a loopback or private address (any of its addresses), at every attempt", async () => {
    for (const answer of [["127.0.0.1"], ["10.0.0.7"], ["::1"], ["::ffff:127.0.0.1"], ["93.184.216.34", "192.168.0.10"]]) {
      const r = resolverOf(answer);
      const a = await new HttpWebhookSender({ resolve: r.resolve }).send(request(`https://hooks.example.test:${port}/x`));
      expect(a.status).toBeNull();
      expect(a.error).toMatch(
        new RegExp(`^refused: hooks\\.example\\.test resolves to ${answer.find((x) => !isPublicAddress(x))!.replace(/[.]/g, "\\.")}`),
      );
      expect(r.calls()).toBe(1);
    }
    expect(connections).toBe(0);
  });

  it("DNS rebinding: each attempt resolves again, and what it connects to is what it checked", async () => {
    // First answer public (no route from this machine: the attempt fails or times out), then loopback.
    const r = resolverOf(["198.51.101.200"], ["127.0.0.1"]);
    const sender = new HttpWebhookSender({ resolve: r.resolve });
    const first = await sender.send(request(`https://rebind.example.test:${port}/x`));
    expect(first.status).toBeNull();
    expect(first.error).not.toMatch(/^refused/);
    const second = await sender.send(request(`https://rebind.example.test:${port}/x`));
    expect(second).toEqual({ status: null, error: "refused: rebind.example.test resolves to 127.0.0.1, not a public address" });
    expect(r.calls()).toBe(2);
    expect(connections).toBe(0);
  });

  it("with private targets allowed, the socket connects to the resolved address (the same lookup)", async () => {
    const r = resolverOf(["127.0.0.1"]);
    const path = "/via-lookup";
    const sender = new HttpWebhookSender({ resolve: r.resolve, allowPrivate: true });
    const a = await sender.send(request(`${receiver.url(path).replace("127.0.0.1", "hooks.example.test")}`));
    expect(a).toEqual({ status: 200, error: null });
    expect(receiver.at(path)[0]!.headers.host).toBe(`hooks.example.test:${new URL(receiver.url()).port}`);
    expect(r.calls()).toBe(1);
  });

  it("a refused target is a failed attempt in the delivery log, with the reason, and nothing is sent", async () => {
    const { workspaceId } = await newWorkspace();
    const { webhook } = await createWebhook(workspaceId, { url: `https://hooks.example.test:${port}/x`, events: ["video.spike"] });
    await emitWorkspaceEvents([{ workspaceId, type: "video.spike", data: { videoId: "v" } }]);
    const [pending] = (await listDeliveries(workspaceId, webhook.id, { limit: 5, offset: 0 })).items;
    const sender = new HttpWebhookSender({ resolve: resolverOf(["169.254.169.254"]).resolve });
    expect(await deliverWebhook(pending!.id, 1, sender)).toEqual({ status: "retrying" });
    const [after] = (await listDeliveries(workspaceId, webhook.id, { limit: 5, offset: 0 })).items;
    expect(after).toMatchObject({
      status: "pending",
      attempts: 1,
      responseStatus: null,
      lastError: "refused: hooks.example.test resolves to 169.254.169.254, not a public address",
    });
    expect(connections).toBe(0);
  });
});
