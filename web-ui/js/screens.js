// Screen switching (one visible <section> at a time, focus moved to its heading so screen
// readers and keyboards follow), and a throttled aria-live announcer for guidance.

const screens = () => document.querySelectorAll('main > section.screen');

/** Shows the section `screen-<name>` and focuses its heading. */
export function show(name) {
  for (const section of screens()) section.hidden = section.id !== `screen-${name}`;
  const section = document.getElementById(`screen-${name}`);
  document.body.dataset.screen = name;
  const heading = section?.querySelector('h1');
  if (heading) heading.focus({ preventScroll: false });
}

export function current() {
  return document.body.dataset.screen;
}

/**
 * Announces `text` politely: the same text is never repeated back to back, and at most one
 * announcement goes out per `intervalMs`; the newest waiting text wins.
 */
export function createAnnouncer(region, intervalMs = 2500) {
  let last = '';
  let lastAt = 0;
  let pending = null;
  let timer = null;
  const flush = () => {
    timer = null;
    if (pending && pending !== last) {
      region.textContent = pending;
      last = pending;
      lastAt = Date.now();
    }
    pending = null;
  };
  return (text) => {
    if (text === last && !pending) return;
    pending = text;
    const wait = intervalMs - (Date.now() - lastAt);
    if (wait <= 0) flush();
    else if (!timer) timer = setTimeout(flush, wait);
  };
}
