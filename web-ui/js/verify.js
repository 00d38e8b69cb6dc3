// The verification flow: welcome → camera request → face guide → challenges (active) or the
// passive hold → analyzing → result → redirect. The server decides everything; this page only
// shows its events. It never sees per-layer scores. Where the session offers it, the welcome
// screen's "I'm sensitive to flashing light" opens the stream on the no-flash path: no colours,
// head-turn challenges instead (the server's `ready` says how many).

import { loadCatalogue, t, translate } from './i18n.js';
import { createAnnouncer, show } from './screens.js';
import { CameraProblem, holdCameraProcessing, listCameras, openCamera, stopCamera } from './camera.js';
import { startStream } from './stream.js';
import { CHALLENGE_ICONS, RESULT_ICONS, drawIcon } from './icons.js';
import { fingerprint } from './fingerprint.js';

const HOLD_MS = 3000;
/** How much longer the server holds after asking for a slight head turn. */
const HOLD_EXTENSION_MS = 4000;
const REDIRECT_DELAY_S = 4;

const app = document.getElementById('app');
const config = JSON.parse(app.dataset.config);
const page = config.page;
const token = new URLSearchParams(location.search).get('token') ?? '';
const $ = (id) => document.getElementById(id);
const announce = createAnnouncer($('announcer'));

const flow = {
  camera: null,
  stream: null,
  /** Whether the camera holds its white balance (null before the colours were shown). */
  cameraLocked: null,
  cameraHold: null,
  lightFrame: null,
  mode: page.mode,
  challengeCount: page.challenge_count,
  holdStarted: 0,
  holdTimer: null,
  verdict: null,
  deviceId: null,
  /** The person chose the no-flash path on the welcome screen. */
  noFlash: false,
};

function setGuidance(text, { speak = true } = {}) {
  $('guidance').textContent = text;
  if (speak) announce(text);
}

// ---- problems (camera failures, dropped sockets) -------------------------------------------

function showProblem(code, retry) {
  $('problem-title').textContent = t(`problem.${code}.title`);
  $('problem-body').textContent = t(`problem.${code}.body`);
  $('problem-next').textContent = t(`problem.${code}.next`);
  const button = $('problem-retry');
  button.hidden = !retry;
  button.onclick = retry ?? null;
  document.body.dataset.problem = code;
  show('problem');
}

// ---- camera ---------------------------------------------------------------------------------

async function startCamera() {
  try {
    stopCamera(flow.camera);
    flow.camera = await openCamera(flow.deviceId);
  } catch (error) {
    const code = error instanceof CameraProblem ? error.code : 'camera_other';
    showProblem(code, code === 'insecure' ? null : startCamera);
    return;
  }
  const preview = $('preview');
  preview.srcObject = flow.camera;
  await preview.play().catch(() => {});
  show('capture');
  fillCameraSwitcher();
  connect();
}

async function fillCameraSwitcher() {
  const cameras = await listCameras();
  const select = $('camera-select');
  $('camera-switch').hidden = cameras.length < 2;
  if (cameras.length < 2) return;
  const active = flow.camera?.getVideoTracks()[0]?.getSettings().deviceId;
  select.replaceChildren(
    ...cameras.map((camera, i) => {
      const option = new Option(camera.label || t('capture.camera_label', { n: i + 1 }), camera.deviceId);
      option.selected = camera.deviceId === active;
      return option;
    }),
  );
  select.onchange = async () => {
    flow.deviceId = select.value;
    try {
      const next = await openCamera(flow.deviceId);
      stopCamera(flow.camera);
      flow.camera = next;
      $('preview').srcObject = next;
    } catch (error) {
      showProblem(error.code ?? 'camera_other', startCamera);
    }
  };
}

// ---- the live stream ----------------------------------------------------------------------

function connect() {
  resetCapture();
  setGuidance(t('capture.connecting'), { speak: false });
  flow.stream = startStream({
    sessionId: page.session_id,
    token,
    livenessPath: flow.noFlash ? 'no_flash' : null,
    video: $('preview'),
    onOpen: () => setGuidance(t('guide.center_face')),
    onMessage: handleMessage,
    onEnd: handleEnd,
    cameraLock: () => flow.cameraLocked,
  });
}

function reconnect() {
  show('capture');
  connect();
}

// ---- the screen's light ---------------------------------------------------------------------

/**
 * Fills the screen around the oval with `colors[k]` from `receipt + k × step_ms` on, then
 * clears it. Every colour lasts 340 ms or more (at most three changes a second, WCAG 2.3.1),
 * and the palette holds no saturated red; the welcome screen warns before the camera starts.
 */
function showLight({ colors, step_ms: stepMs }) {
  const receipt = performance.now();
  // the camera is asked to hold its white balance and exposure while the colours are shown;
  // frames say whether it did (`auto` until the camera has answered)
  flow.cameraLocked = false;
  const asked = holdCameraProcessing(flow.camera).then((hold) => {
    if (flow.lightFrame === null) {
      hold.restore();
      return null;
    }
    flow.cameraLocked = hold.locked;
    return hold;
  });
  flow.cameraHold = asked;
  const root = document.documentElement;
  document.body.classList.add('lighting');
  let shown = -1;
  const tick = () => {
    const index = Math.floor((performance.now() - receipt) / stepMs);
    if (index >= colors.length) return stopLight();
    if (index !== shown) {
      shown = index;
      root.style.setProperty('--screen-light', colors[index]);
      document.body.dataset.light = colors[index];
    }
    flow.lightFrame = requestAnimationFrame(tick);
  };
  tick();
}

function stopLight() {
  cancelAnimationFrame(flow.lightFrame);
  flow.lightFrame = null;
  // the camera's own settings come back once the colours are over
  const hold = flow.cameraHold;
  flow.cameraHold = null;
  hold?.then((held) => held?.restore());
  if (flow.cameraLocked !== null && flow.cameraLocked !== undefined) flow.cameraLocked = false;
  document.body.classList.remove('lighting');
  document.body.dataset.light = '';
}

function resetCapture() {
  stopLight();
  clearInterval(flow.holdTimer);
  flow.holdStarted = 0;
  $('hold-ring').hidden = true;
  $('challenge').hidden = true;
  $('analyzing').hidden = true;
  $('oval').classList.remove('ok');
  document.body.dataset.challenge = '';
}

function handleMessage({ type, data }) {
  switch (type) {
    case 'ready':
      // a passive session on the no-flash path asks challenges like an active one
      flow.mode = data.challenge_count > 0 ? 'active' : data.mode;
      flow.challengeCount = data.challenge_count;
      break;
    case 'illumination':
      showLight(data);
      break;
    case 'face_detected':
      $('oval').classList.toggle('ok', Boolean(data.centered));
      if (!$('challenge').hidden || !$('analyzing').hidden) break;
      if (data.centered && flow.mode === 'passive') startHold();
      setGuidance(t(data.centered ? (flow.mode === 'passive' ? 'hold.instruction' : 'guide.face_found') : 'guide.center_face'));
      break;
    case 'guidance':
      if (data.code === 'turn_head_slightly') {
        // the hold goes on: the server needs a little head motion to judge depth
        restartHold(HOLD_EXTENSION_MS);
        setGuidance(t('guide.turn_head_slightly'));
        break;
      }
      $('oval').classList.remove('ok');
      if (flow.holdStarted && data.code !== 'hold_still') stopHold();
      setGuidance(t(`guide.${data.code}`));
      break;
    case 'challenge':
      showChallenge(data.type, data.index);
      break;
    case 'challenge_result':
      showChallengeOutcome(data.index, data.passed);
      break;
    case 'verdict':
      flow.verdict = data;
      flow.stream?.stop();
      stopCamera(flow.camera);
      showResult(data.verdict, data.redirect_url, { fresh: true });
      break;
    default:
      break;
  }
}

function handleEnd({ code, error, timeout }) {
  if (flow.verdict) return;
  resetCapture();
  if (timeout) return showProblem('timeout', reconnect);
  switch (code) {
    case 4001:
    case 4004:
      stopCamera(flow.camera);
      return showInvalid();
    case 4009:
      // a verdict exists (another tab): the page shows it
      return location.reload();
    case 4029:
      return showProblem('session_busy', reconnect);
    case 4000:
      return showProblem('idle_timeout', reconnect);
    case 1011:
      return showProblem('server', reconnect);
    default:
      return showProblem(error === 'frame_too_large' ? 'camera_other' : 'connection', reconnect);
  }
}

// ---- passive hold and challenges ------------------------------------------------------------

function restartHold(duration) {
  clearInterval(flow.holdTimer);
  flow.holdStarted = 0;
  $('analyzing').hidden = true;
  startHold(duration);
}

function startHold(duration = HOLD_MS) {
  if (flow.holdStarted) return;
  flow.holdStarted = performance.now();
  const ring = $('hold-ring');
  const arc = $('hold-ring-arc');
  const count = $('hold-ring-count');
  const length = 2 * Math.PI * 52;
  arc.style.strokeDasharray = String(length);
  ring.hidden = false;
  const tick = () => {
    const elapsed = performance.now() - flow.holdStarted;
    const left = Math.max(0, duration - elapsed);
    arc.style.strokeDashoffset = String(length * (left / duration));
    count.textContent = String(Math.ceil(left / 1000));
    if (left <= 0) {
      clearInterval(flow.holdTimer);
      showAnalyzing();
    }
  };
  tick();
  flow.holdTimer = setInterval(tick, 100);
}

function stopHold() {
  clearInterval(flow.holdTimer);
  flow.holdStarted = 0;
  $('hold-ring').hidden = true;
}

function showAnalyzing() {
  $('hold-ring').hidden = true;
  $('challenge').hidden = true;
  $('analyzing').hidden = false;
  document.body.dataset.challenge = '';
  $('guidance').textContent = '';
  announce(t('analyzing.title'));
}

function showChallenge(kind, index) {
  const markup = CHALLENGE_ICONS[kind];
  if (!markup) return;
  stopHold();
  $('challenge').hidden = false;
  $('challenge-outcome').hidden = true;
  drawIcon($('challenge-icon'), markup, `challenge-icon ${kind}`);
  const progress = t('challenge.progress', { n: index + 1, total: flow.challengeCount });
  const instruction = t(`challenge.${kind}`);
  $('challenge-progress').textContent = progress;
  $('challenge-text').textContent = instruction;
  document.body.dataset.challenge = `${index}:${kind}`;
  $('guidance').textContent = '';
  announce(`${progress}. ${instruction}`);
}

function showChallengeOutcome(index, passed) {
  const outcome = $('challenge-outcome');
  outcome.hidden = false;
  outcome.textContent = t(passed ? 'challenge.passed' : 'challenge.failed');
  outcome.className = `outcome ${passed ? 'passed' : 'failed'}`;
  announce(outcome.textContent);
  if (index + 1 >= flow.challengeCount) showAnalyzing();
}

// ---- end states -----------------------------------------------------------------------------

const safeUrl = (url) => (typeof url === 'string' && /^https?:\/\//i.test(url) ? url : null);

function showResult(verdict, redirectUrl, { fresh }) {
  const kind = ['pass', 'fail', 'retry'].includes(verdict) ? verdict : 'fail';
  drawIcon($('result-icon'), RESULT_ICONS[kind], `result-icon ${kind}`);
  $('result-title').textContent = t(`result.${kind}.title`);
  $('result-body').textContent = t(`result.${kind}.body`);
  document.body.dataset.verdict = kind;
  const next = $('result-redirect');
  const continueLink = $('result-continue');
  const target = safeUrl(redirectUrl);
  next.hidden = true;
  continueLink.hidden = true;
  $('result-try-again').hidden = true;
  show('result');
  if (config.parent_origin && window.parent !== window) {
    // the SDK's modal: tell the embedding page (only the origin the server allowed)
    window.parent.postMessage(
      { type: 'facegate:completed', session_id: page.session_id },
      config.parent_origin,
    );
    next.hidden = false;
    next.textContent = t('result.done_embedded');
    return;
  }
  if (kind !== 'pass' && page.can_try_again) {
    if (kind === 'fail') $('result-body').textContent = t('result.fail.body_try_again');
    const button = $('result-try-again');
    button.hidden = false;
    button.onclick = tryAgain;
  }
  if (target) {
    continueLink.href = target;
    continueLink.hidden = false;
    if (fresh) countdownTo(target);
  } else if ($('result-try-again').hidden) {
    next.hidden = false;
    next.textContent = t('result.no_next_step');
  }
}

function countdownTo(target) {
  let seconds = REDIRECT_DELAY_S;
  const next = $('result-redirect');
  next.hidden = false;
  const tick = () => {
    next.textContent = t('result.redirecting', { seconds });
    if (seconds-- <= 0) location.assign(target);
    else setTimeout(tick, 1000);
  };
  tick();
}

async function tryAgain() {
  const button = $('result-try-again');
  button.disabled = true;
  try {
    const response = await fetch('/api/v1/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ fingerprint_id: fingerprint(), ...(page.mode === 'passive' ? { mode: 'passive' } : {}) }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body?.error?.message ?? response.status);
    const lang = document.documentElement.lang;
    location.assign(`/verify/${body.session_id}?token=${encodeURIComponent(body.token)}&lang=${lang}`);
  } catch {
    button.disabled = false;
    showProblem('connection', tryAgain);
  }
}


function showInvalid() {
  $('problem-title').textContent = t('invalid.title');
  $('problem-body').textContent = t('invalid.body');
  $('problem-next').textContent = '';
  $('problem-retry').hidden = true;
  document.body.dataset.problem = 'invalid_link';
  show('problem');
}

// ---- start ----------------------------------------------------------------------------------

async function main() {
  await loadCatalogue(app.dataset.assets, config.lang);
  translate();
  if (page.start === 'invalid_link') return showInvalid();
  if (page.start === 'completed') return showResult(page.verdict, page.redirect_url, { fresh: false });
  $('welcome-step-mode').textContent =
    page.mode === 'passive' ? t('welcome.step_passive') : t('welcome.step_active', { count: page.challenge_count });
  $('welcome-start').onclick = () => show('camera');
  if (page.no_flash_offered) {
    $('welcome-no-flash').hidden = false;
    $('welcome-no-flash-hint').hidden = false;
    $('welcome-no-flash').onclick = () => {
      flow.noFlash = true;
      show('camera');
    };
  }
  $('camera-allow').onclick = startCamera;
  show('welcome');
}

main().catch(() => showProblem('connection', () => location.reload()));
