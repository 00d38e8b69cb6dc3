// The built client (dist/) against a running Facegate: run by tests/tests/it/clients.rs with
//   FACEGATE_URL, FACEGATE_KEY, FACEGATE_TESTDATA (../shared/testdata),
//   FACEGATE_WEBHOOK (a JSON file: {secret, headers, body} of one delivered webhook).
// Every step asserts; the process exits non-zero on the first failure.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FacegateClient, FacegateError } from '../dist/index.js';
import { verifyWebhook } from '../dist/webhooks.js';

const env = (name) => {
  const value = process.env[name];
  assert.ok(value, `${name} is set`);
  return value;
};
const client = new FacegateClient({ baseUrl: env('FACEGATE_URL'), apiKey: env('FACEGATE_KEY') });
const photo = (path) => readFileSync(`${env('FACEGATE_TESTDATA')}/${path}`);

// sessions: create, read, list by reference, erase
const created = await client.createSession({ mode: 'passive', reference_id: 'ts-client' });
assert.match(created.session_url, /\/verify\//);
const result = await client.sessionResult(created.session_id);
assert.equal(result.status, 'created');
const listed = await client.listSessions({ reference_id: 'ts-client' });
assert.deepEqual(listed.sessions.map((s) => s.session_id), [created.session_id]);
assert.equal(await client.sessionPhoto(created.session_id), null, 'no portrait before a verdict');
await client.eraseSession(created.session_id);
await assert.rejects(client.sessionResult(created.session_id), (e) =>
  e instanceof FacegateError && e.status === 404 && e.code === 'session_not_found');

// faces: detect and compare two photos of one person
const [one, two] = [photo('identities/celebs/id00/img1.jpg'), photo('identities/celebs/id00/img2.jpg')];
const detected = await client.detectFaces(one);
assert.equal(detected.faces.length, 1);
const compared = await client.compareFaces(one, two);
assert.equal(compared.is_match, true);

// collections: create, index, search, delete
await client.createCollection('ts-client', 'typed client smoke test');
const indexed = await client.indexFace('ts-client', 'person-1', one);
assert.equal(indexed.external_face_id, 'person-1');
const found = await client.searchByImage('ts-client', two);
assert.equal(found.hits[0].external_face_id, 'person-1');
await client.deleteCollection('ts-client');
await assert.rejects(client.createCollection('bad id with spaces'), (e) =>
  e instanceof FacegateError && e.status === 400 && e.code === 'invalid_identifier');

// a webhook Facegate delivered, verified with the tenant's secret; a changed body is refused
const hook = JSON.parse(readFileSync(env('FACEGATE_WEBHOOK'), 'utf8'));
const payload = verifyWebhook(hook.secret, hook.body, hook.headers);
assert.ok(['pass', 'fail', 'retry'].includes(payload.verdict));
assert.throws(() => verifyWebhook(hook.secret, hook.body.replace('"', ' "'), hook.headers));

console.log('typescript client: ok');
