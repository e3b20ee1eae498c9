/**
 * Signing secrets: `whsec_` + base64 of 32 random bytes, shown once at creation and stored only
 * encrypted (AES-256-GCM), so that a database dump alone does not reveal them.
 *
 * The AES key is derived (HKDF-SHA256) from WEBHOOK_SECRET_KEY. The stored form is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url parts); the endpoint's id is the additional
 * authenticated data, so a ciphertext copied onto another endpoint's row does not decrypt. The key
 * id (a hash of the derived key) tells "the key changed" apart from "the data is corrupt".
 *
 * Rotation: WEBHOOK_SECRET_KEY_PREVIOUS holds the key being replaced; secrets encrypted with either
 * key decrypt (the key id says which), new ones are encrypted with WEBHOOK_SECRET_KEY.
 *
 * WEBHOOK_SECRET_KEY unset: creating a webhook is refused (503 WEBHOOKS_NOT_CONFIGURED) and
 * deliveries to existing endpoints fail (and are retried) until it is set again, to the same value.
 * `npm start` outside production generates one into a git-ignored file when it is unset
 * (src/main/webhook-key.ts).
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { config } from "../../config.ts";
import { DomainError } from "../shared/errors.ts";

const SECRET_PREFIX = "whsec_";
/** Random bytes of a signing secret (the contract asks for at least 24). */
const SECRET_BYTES = 32;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

export const notConfigured = () =>
  new DomainError(
    "WEBHOOKS_NOT_CONFIGURED",
    "Webhooks are not configured on this server: the operator must set WEBHOOK_SECRET_KEY (32+ characters) to store signing secrets encrypted.",
  );

/** The secret cannot be read (no key, another key, corrupt data): deliveries fail with this reason. */
export class SecretUnavailable extends Error {}

const keys = new Map<string, { key: Buffer; id: string }>();
function derive(material: string) {
  let k = keys.get(material);
  if (!k) {
    const key = Buffer.from(hkdfSync("sha256", material, "video-service-webhooks", "aes-256-gcm secret encryption v1", 32));
    k = { key, id: createHash("sha256").update(key).digest("base64url").slice(0, 8) };
    keys.set(material, k);
  }
  return k;
}

export const encryptionConfigured = (material = config.webhooks.secretKey) => !!material;

export function encryptSecret(secret: string, endpointId: string, material = config.webhooks.secretKey): string {
  if (!material) throw notConfigured();
  const { key, id } = derive(material);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(endpointId.toLowerCase()));
  const ct = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return ["v1", id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

/**
 * Decrypts with the key the ciphertext names: WEBHOOK_SECRET_KEY, or WEBHOOK_SECRET_KEY_PREVIOUS while
 * the key is being rotated (set the new key, the old one as previous; endpoints keep working; new
 * secrets are encrypted with the new key).
 */
export function decryptSecret(
  stored: string,
  endpointId: string,
  material = config.webhooks.secretKey,
  previous = config.webhooks.previousSecretKey,
): string {
  if (!material) throw new SecretUnavailable("WEBHOOK_SECRET_KEY is not set: the signing secret cannot be decrypted");
  const [version, keyId, iv, tag, ct] = stored.split(".");
  if (version !== "v1" || !iv || !tag || ct === undefined) throw new SecretUnavailable("the stored signing secret is not readable");
  const { key } = [material, ...(previous ? [previous] : [])].map(derive).find((k) => k.id === keyId) ?? {};
  if (!key)
    throw new SecretUnavailable(
      `the signing secret was encrypted with another WEBHOOK_SECRET_KEY${previous ? " (nor WEBHOOK_SECRET_KEY_PREVIOUS)" : ""}`,
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(endpointId.toLowerCase()));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnavailable("the stored signing secret does not decrypt (corrupt or moved)");
  }
}
