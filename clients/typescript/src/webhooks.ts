// Verifying Facegate's webhooks: they follow Standard Webhooks (`webhook-id`,
// `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 over `id.timestamp.body`), so this is
// the reference library's verifier with Facegate's payload type. The secret is the tenant's
// `whsec_…` (`facegate webhooks secret --tenant NAME`); pass the raw body, byte for byte.

import { Webhook } from 'standardwebhooks';

/** A verdict as the webhook carries it (docs/api.md, "Webhooks"). */
export interface SessionWebhook {
  session_id: string;
  status: string;
  verdict: 'pass' | 'fail' | 'retry';
  confidence: number;
  reference_id?: string | null;
  reasons?: string[];
  [field: string]: unknown;
}

/**
 * The payload when the signature and timestamp hold (within 5 minutes); throws otherwise.
 * `headers` may be a Fetch `Headers` or a plain object of the request's headers.
 */
export function verifyWebhook(
  secret: string,
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
): SessionWebhook {
  const plain: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    plain[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  return new Webhook(secret).verify(body, plain) as SessionWebhook;
}
