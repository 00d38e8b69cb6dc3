"""The generated client and the webhook verifier against a running Facegate.

Run by tests/tests/it/clients.rs with PYTHONPATH=clients/python/src and FACEGATE_URL,
FACEGATE_KEY, FACEGATE_TESTDATA (../shared/testdata) and FACEGATE_WEBHOOK (a JSON file:
{secret, headers, body} of one webhook Facegate delivered). Every step asserts.
"""

import io
import json
import os

from facegate_client import AuthenticatedClient
from facegate_client.api.collections import create as create_collection
from facegate_client.api.collections import delete as delete_collection
from facegate_client.api.faces import compare, detect
from facegate_client.api.faces_in_collections import index_face
from facegate_client.api.search import search_by_image
from facegate_client.api.sessions import create_managed, erase_session, list_sessions, result
from facegate_client.models import (
    CompareForm,
    CreateCollection,
    ImageForm,
    IndexFaceForm,
    ManagedSessionBody,
)
from facegate_client.types import File
from facegate_webhooks import WebhookVerificationError, verify_webhook

env = os.environ
client = AuthenticatedClient(base_url=env["FACEGATE_URL"], token=env["FACEGATE_KEY"])


def photo(path: str) -> File:
    with open(os.path.join(env["FACEGATE_TESTDATA"], path), "rb") as f:
        return File(payload=io.BytesIO(f.read()), file_name="photo.jpg", mime_type="image/jpeg")


# sessions: create, read, list by reference, erase
created = create_managed.sync(
    client=client, body=ManagedSessionBody(mode="passive", reference_id="py-client")
)
assert "/verify/" in created.session_url, created
read = result.sync_detailed(client=client, id=str(created.session_id))
assert read.status_code == 200 and read.parsed.status == "created", read
listed = list_sessions.sync(client=client, reference_id="py-client")
assert [str(s.session_id) for s in listed.sessions] == [str(created.session_id)], listed
erased = erase_session.sync_detailed(client=client, id=str(created.session_id))
assert erased.status_code == 204, erased
gone = result.sync_detailed(client=client, id=str(created.session_id))
assert gone.status_code == 404 and gone.parsed.error.code == "session_not_found", gone

# faces: detect and compare two photos of one person
found = detect.sync_detailed(client=client, body=ImageForm(image=photo("identities/celebs/id00/img1.jpg")))
assert found.status_code == 200 and len(found.parsed.faces) == 1, found.content
same = compare.sync(
    client=client,
    body=CompareForm(
        source_image=photo("identities/celebs/id00/img1.jpg"),
        target_image=photo("identities/celebs/id00/img2.jpg"),
    ),
)
assert same.is_match, same

# collections: create, index, search, delete
made = create_collection.sync_detailed(client=client, body=CreateCollection(external_id="py-client"))
assert made.status_code == 201, made.content
indexed = index_face.sync_detailed(
    client=client,
    external_id="py-client",
    body=IndexFaceForm(external_face_id="person-1", image=photo("identities/celebs/id00/img1.jpg")),
)
assert indexed.status_code == 201, indexed.content
hits = search_by_image.sync(
    client=client,
    external_id="py-client",
    body=ImageForm(image=photo("identities/celebs/id00/img2.jpg")),
)
assert hits.hits[0].external_face_id == "person-1", hits
assert delete_collection.sync_detailed(client=client, external_id="py-client").status_code == 204

# a webhook Facegate delivered, verified with the tenant's secret; a changed body is refused
with open(env["FACEGATE_WEBHOOK"], encoding="utf-8") as f:
    hook = json.load(f)
payload = verify_webhook(hook["secret"], hook["body"], hook["headers"])
assert payload["verdict"] in ("pass", "fail", "retry"), payload
try:
    verify_webhook(hook["secret"], hook["body"].replace('"', ' "', 1), hook["headers"])
    raise AssertionError("a changed body verified")
except WebhookVerificationError:
    pass

print("python client: ok")
