// The demo page: creates a direct session (no key) and opens its verification page.

import { loadCatalogue, t, translate } from './i18n.js';
import { fingerprint } from './fingerprint.js';

const app = document.getElementById('app');
const config = JSON.parse(app.dataset.config);


async function start(event) {
  event.preventDefault();
  const button = document.getElementById('demo-start');
  const error = document.getElementById('demo-error');
  button.disabled = true;
  error.hidden = true;
  const mode = new FormData(event.target).get('mode');
  try {
    const response = await fetch('/api/v1/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fingerprint_id: fingerprint(), ...(mode === 'passive' ? { mode } : {}) }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body?.error?.message ?? String(response.status));
    location.assign(`/verify/${body.session_id}?token=${encodeURIComponent(body.token)}&lang=${config.lang}`);
  } catch (failure) {
    error.textContent = t('demo.failed', { message: failure.message });
    error.hidden = false;
    button.disabled = false;
  }
}

await loadCatalogue(app.dataset.assets, config.lang);
translate();
document.title = t('demo.title');
document.getElementById('demo-form').addEventListener('submit', start);
