"""Verifying Facegate's webhooks.

They follow Standard Webhooks (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``:
HMAC-SHA256 over ``id.timestamp.body``), so this is the reference ``standardwebhooks``
verifier with Facegate's payload. The secret is the tenant's ``whsec_...`` (``facegate webhooks
secret --tenant NAME``); pass the raw request body, byte for byte.
"""

from __future__ import annotations

from typing import Any, Mapping, TypedDict

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

__all__ = ["SessionWebhook", "WebhookVerificationError", "verify_webhook"]


class SessionWebhook(TypedDict, total=False):
    """A verdict as the webhook carries it (docs/api.md, "Webhooks")."""

    session_id: str
    status: str
    verdict: str
    confidence: float
    reference_id: str | None
    reasons: list[str]


def verify_webhook(secret: str, body: bytes | str, headers: Mapping[str, str]) -> SessionWebhook:
    """The payload when the signature and timestamp (within 5 minutes) hold.

    Raises ``WebhookVerificationError`` otherwise.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    payload: Any = Webhook(secret).verify(body, lowered)
    return payload
