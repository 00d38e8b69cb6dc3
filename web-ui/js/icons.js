// Icons drawn as SVG markup from constants (never from data): the four challenges and the
// three results. Animations are slow (no flashing) and stop under prefers-reduced-motion.

export const CHALLENGE_ICONS = {
  blink:
    '<g class="anim-blink"><path d="M6 32c8-12 17-18 26-18s18 6 26 18c-8 12-17 18-26 18S14 44 6 32z"/>' +
    '<circle cx="32" cy="32" r="8"/></g>',
  turn_left:
    '<circle cx="38" cy="30" r="14"/><path d="M36 52h8"/>' +
    '<g class="anim-left"><path d="M18 30H4m0 0l6-6m-6 6l6 6"/></g>',
  turn_right:
    '<circle cx="26" cy="30" r="14"/><path d="M20 52h8"/>' +
    '<g class="anim-right"><path d="M46 30h14m0 0l-6-6m6 6l-6 6"/></g>',
  smile:
    '<circle cx="32" cy="32" r="26"/><circle cx="23" cy="26" r="2.5"/><circle cx="41" cy="26" r="2.5"/>' +
    '<path class="anim-smile" d="M20 38c3 7 8 10 12 10s9-3 12-10"/>',
};

export const RESULT_ICONS = {
  pass: '<circle cx="32" cy="32" r="28"/><path d="M19 33l9 9 17-19"/>',
  fail: '<circle cx="32" cy="32" r="28"/><path d="M22 22l20 20M42 22L22 42"/>',
  retry: '<circle cx="32" cy="32" r="28"/><path d="M44 26a13 13 0 1 0 1 12M44 17v9h-9"/>',
};

export function drawIcon(svg, markup, className) {
  svg.innerHTML = markup;
  svg.setAttribute('class', className);
}
