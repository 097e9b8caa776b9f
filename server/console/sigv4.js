// Signature Version 4 for the console's API calls, in the browser with WebCrypto: the same
// canonical request the server verifies (server/sigv4.cc). Without a secret the header is only
// well formed (ddbd without --auth-keys accepts any signature); WebCrypto exists only in secure
// contexts (https, localhost, 127.0.0.1), so elsewhere a secret cannot be used.

const encoder = new TextEncoder();

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256Hex(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function hmac(key, text) {
  const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" },
    false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(text)));
}

// 20261125T224001Z
export function amzDate(now) {
  return now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

export function canSign() {
  return typeof crypto !== "undefined" && crypto.subtle !== undefined;
}

// The headers of one API call: `target` e.g. "DynamoDB_20120810.ListTables", `body` the JSON text;
// or, without a target, of a GET of ddbd's own `path` (and `query`, already in canonical order).
export async function signedHeaders({ accessKeyId, secretAccessKey, region, host, target, body = "",
  method = "POST", path = "/", query = "", now = new Date() }) {
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const scope = `${day}/${region}/dynamodb/aws4_request`;
  const headers = target ? {
    "content-type": "application/x-amz-json-1.0",
    host,
    "x-amz-date": date,
    "x-amz-target": target,
  } : { host, "x-amz-date": date };
  const names = Object.keys(headers).sort();
  let signature = "0".repeat(64);
  if (secretAccessKey) {
    if (!canSign()) {
      throw new Error("Signing needs WebCrypto, which browsers give only to https pages and to " +
        "localhost: open the console at http://localhost:PORT/console/ (an SSH tunnel works), " +
        "or serve ddbd over HTTPS with --tls-cert and --tls-key.");
    }
    const canonical = [method, path, query, ...names.map((n) => `${n}:${headers[n]}`), "",
      names.join(";"), await sha256Hex(body)].join("\n");
    const toSign = ["AWS4-HMAC-SHA256", date, scope, await sha256Hex(canonical)].join("\n");
    let key = encoder.encode("AWS4" + secretAccessKey);
    for (const part of [day, region, "dynamodb", "aws4_request"]) key = await hmac(key, part);
    signature = hex(await hmac(key, toSign));
  }
  return {
    ...(target ? { "Content-Type": headers["content-type"], "X-Amz-Target": target } : {}),
    "X-Amz-Date": date,
    Authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, ` +
      `SignedHeaders=${names.join(";")}, Signature=${signature}`,
  };
}
