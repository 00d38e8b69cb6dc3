// Messages: one JSON catalogue per language under ../i18n/, chosen by the server
// (?lang= or Accept-Language) and written into <html lang>.

let catalogue = {};

export async function loadCatalogue(assets, lang) {
  const response = await fetch(`${assets}/i18n/${lang}.json`, { credentials: 'omit' });
  if (!response.ok) throw new Error(`catalogue ${lang}: ${response.status}`);
  catalogue = await response.json();
}

/** The message `key` with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = catalogue[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ''));
}

/** Fills every element carrying data-i18n under `root`. */
export function translate(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    element.textContent = t(element.dataset.i18n);
  }
  document.title = t('title');
}
