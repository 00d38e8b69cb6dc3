// The live stream: a WebSocket to /ws/<id>?token=, frames drawn from the preview to a canvas
// (at most 640 px wide) at 12 fps and sent as binary JPEG messages under 1.5 MB. A frame is
// skipped while the socket's bufferedAmount is high, so a slow network never queues frames.
// Each frame carries the time it was drawn, in ms from the `ready` message, as a JPEG comment
// (`facegate:capture_ms=<n>`, docs/api.md): the screen-light check lines the face's colour up
// with the colours shown, and arrival times would add the network's jitter. While the colours
// are shown the stamp also says whether the camera held its white balance
// (`;camera=locked` or `;camera=auto`, from `cameraLock()`). The page never sends faster than
// the server's `max_fps` (`ready`, `slow_down`: frames past it are set aside unread).

const FPS = 12;
const MAX_WIDTH = 640;
const MAX_FRAME_BYTES = 1_500_000;
/** Above this many unsent bytes, frames are skipped until the socket drains. */
const HIGH_WATER_BYTES = 256 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * `bytes` (a JPEG) with a `facegate:capture_ms=<captureMs>` comment after its start marker,
 * ending in `;camera=locked` or `;camera=auto` when `locked` is known (not null).
 */
function withCaptureTime(bytes, captureMs, locked) {
  const jpeg = new Uint8Array(bytes);
  if (captureMs === null || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return bytes;
  const lock = locked === null || locked === undefined ? '' : `;camera=${locked ? 'locked' : 'auto'}`;
  const text = new TextEncoder().encode(`facegate:capture_ms=${captureMs}${lock}`);
  const length = text.length + 2;
  const out = new Uint8Array(jpeg.length + length + 2);
  out.set([0xff, 0xd8, 0xff, 0xfe, length >> 8, length & 0xff]);
  out.set(text, 6);
  out.set(jpeg.subarray(2), 6 + text.length);
  return out.buffer;
}

/**
 * Streams `video` to the session (`livenessPath`: `no_flash`, or null for the light path). `onMessage({type, data})` gets each server message;
 * `onEnd({code, reason, error})` gets the close (once). Returns `{stop()}`.
 */
export function startStream({ sessionId, token, livenessPath, video, onOpen, onMessage, onEnd, cameraLock }) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const path = livenessPath ? `&liveness_path=${encodeURIComponent(livenessPath)}` : '';
  const url = `${scheme}://${location.host}/ws/${encodeURIComponent(sessionId)}?token=${encodeURIComponent(token)}${path}`;
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { alpha: false });
  let timer = null;
  let encoding = false;
  let ended = false;
  let lastError = null;
  let quality = 0.85;
  /** When the `ready` message arrived (performance.now()); frames are timed from it. */
  let readyAt = null;

  /** Sends frames at `fps`, at most FPS and at most the server's `max_fps` when it gave one. */
  const pace = (maxFps) => {
    const fps = Math.min(FPS, Number.isFinite(maxFps) && maxFps > 0 ? maxFps : FPS);
    clearInterval(timer);
    timer = setInterval(sendFrame, Math.round(1000 / fps));
  };

  const end = (info) => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    clearTimeout(connectTimer);
    onEnd(info);
  };
  const connectTimer = setTimeout(() => {
    if (socket.readyState === WebSocket.CONNECTING) {
      socket.close();
      end({ code: 0, timeout: true });
    }
  }, CONNECT_TIMEOUT_MS);

  const sendFrame = () => {
    if (encoding || socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > HIGH_WATER_BYTES) return;
    if (!video.videoWidth || video.readyState < 2) return;
    const scale = Math.min(1, MAX_WIDTH / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    const captureMs = readyAt === null ? null : Math.max(0, Math.round(performance.now() - readyAt));
    const locked = cameraLock ? cameraLock() : null;
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    encoding = true;
    canvas.toBlob(async (blob) => {
      try {
        if (!blob || socket.readyState !== WebSocket.OPEN) return;
        if (blob.size > MAX_FRAME_BYTES) {
          quality = Math.max(0.4, quality - 0.15);
          return;
        }
        const bytes = await blob.arrayBuffer();
        // The socket can close while the bytes are read; sending then would only log an error.
        if (socket.readyState !== WebSocket.OPEN) return;
        socket.send(withCaptureTime(bytes, captureMs, locked));
      } finally {
        encoding = false;
      }
    }, 'image/jpeg', quality);
  };

  socket.addEventListener('open', () => {
    clearTimeout(connectTimer);
    onOpen?.();
    pace(FPS);
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === 'ready' && readyAt === null) readyAt = performance.now();
    if ((message.type === 'ready' || message.type === 'slow_down') && !ended) pace(message.data?.max_fps);
    if (message.type === 'error') lastError = message.data?.code ?? null;
    onMessage(message);
  });
  socket.addEventListener('close', (event) => end({ code: event.code, error: lastError }));
  socket.addEventListener('error', () => {
    if (socket.readyState === WebSocket.CLOSED) end({ code: 1006, error: lastError });
  });

  return {
    stop() {
      clearInterval(timer);
      ended = true;
      if (socket.readyState <= WebSocket.OPEN) socket.close(1000);
    },
  };
}
