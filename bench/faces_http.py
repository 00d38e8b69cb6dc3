#!/usr/bin/env python3
"""Faces over HTTP beside `face_recognition` (dlib), in one run on one machine (issue 42).

Per image, Facegate answers `POST /api/v2/collections/{id}/faces` (upload, decode, detect,
mesh, align, embed, the database write and the index) with the server pinned to one core;
face_recognition decodes, finds the face and encodes it in this process, pinned to the same
core. The client runs on another core and sends one request at a time over one keep-alive
connection. It also times `POST /api/v2/faces:compare` of two ~1 MP JPEGs, one at a time, with
the server on every core (the p50 goal of issue 42).

Usage: FACEGATE_URL=http://127.0.0.1:PORT FACEGATE_KEY=KEY bench/faces_http.py COMPARE_A COMPARE_B
  (bench/faces_http.sh builds the release binary, starts the server and calls this.)
Images: the first photo of every celebs identity in ../shared/testdata.
face_recognition is timed by bench/face_recognition_compare.py's own function, on its images;
bench/faces_http.sh installs it when it is missing.
"""
import http.client
import json
import os
import statistics
import sys
import time
import urllib.parse
import uuid

import face_recognition_compare as dlib_side

ROUNDS = int(os.environ.get("ROUNDS", "5"))
COMPARES = int(os.environ.get("COMPARES", "60"))
SERVER_CORE = int(os.environ.get("SERVER_CORE", "0"))
CLIENT_CORE = int(os.environ.get("CLIENT_CORE", "1"))
BOUNDARY = "facegatebenchboundary"


def multipart(files, texts):
    parts = []
    for name, value in texts.items():
        parts.append(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    for name, data in files.items():
        parts.append(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{name}.jpg"\r\n'
            f"Content-Type: image/jpeg\r\n\r\n".encode() + data + b"\r\n")
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


class Client:
    def __init__(self, url, key):
        parsed = urllib.parse.urlparse(url)
        self.connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
        self.key = key

    def post(self, path, body, content_type):
        headers = {"Authorization": f"Bearer {self.key}", "Content-Type": content_type}
        start = time.perf_counter()
        self.connection.request("POST", path, body=body, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        return response.status, payload, elapsed

    def form(self, path, files, texts=None):
        return self.post(path, multipart(files, texts or {}),
                         f"multipart/form-data; boundary={BOUNDARY}")


def time_index(client, paths):
    collection = f"bench-{uuid.uuid4().hex[:8]}"
    status, body, _ = client.post("/api/v2/collections",
                                  json.dumps({"external_id": collection}).encode(),
                                  "application/json")
    if status not in (200, 201):
        sys.exit(f"create collection: {status} {body[:200]!r}")
    data = {path: open(path, "rb").read() for path in paths}
    per_image, indexed = [], 0
    for round_ in range(ROUNDS):
        for n, path in enumerate(paths):
            status, body, ms = client.form(
                f"/api/v2/collections/{collection}/faces", {"image": data[path]},
                {"external_face_id": f"r{round_}-{n}", "quality_filter": "none"})
            if status in (200, 201):
                per_image.append(ms)
                indexed += 1
    return statistics.median(per_image), indexed // ROUNDS


def time_compare(client, a, b):
    files = {"source_image": open(a, "rb").read(), "target_image": open(b, "rb").read()}
    times = []
    for _ in range(COMPARES):
        status, body, ms = client.form("/api/v2/faces:compare", files)
        if status != 200:
            sys.exit(f"compare: {status} {body[:200]!r}")
        times.append(ms)
    times.sort()
    return times[len(times) // 2], times[int(len(times) * 0.95)]


def main():
    if len(sys.argv) != 3 or "FACEGATE_URL" not in os.environ:
        sys.exit(__doc__)
    paths = dlib_side.default_images()
    dlib_side.ROUNDS = ROUNDS
    client = Client(os.environ["FACEGATE_URL"], os.environ["FACEGATE_KEY"])
    os.sched_setaffinity(0, {CLIENT_CORE})
    mode = os.environ.get("MODE", "index")
    if mode == "index":
        facegate_ms, indexed = time_index(client, paths)
        print(f"{len(paths)} images, {ROUNDS} rounds, server and dlib on core {SERVER_CORE}")
        if os.environ.get("DLIB") == "0":
            print(f"Facegate over HTTP: {facegate_ms:.1f} ms an image, {indexed} of {len(paths)} indexed")
            return
        os.sched_setaffinity(0, {SERVER_CORE})
        dlib_ms, dlib_found = dlib_side.time_face_recognition(paths)
        print("| per image, one core | median | faces |")
        print("|---|---|---|")
        print(f"| face_recognition (dlib HOG + ResNet 128-d), in process | {dlib_ms:.1f} ms | {dlib_found} of {len(paths)} |")
        print(f"| Facegate `POST /api/v2/collections/{{id}}/faces`, over HTTP | {facegate_ms:.1f} ms | {indexed} of {len(paths)} |")
        print(f"speed-up: {dlib_ms / facegate_ms:.1f}x")
    else:
        p50, p95 = time_compare(client, sys.argv[1], sys.argv[2])
        print(f"faces:compare, two ~1 MP JPEGs, one at a time ({COMPARES}): p50 {p50:.1f} ms, p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
