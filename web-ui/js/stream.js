// The live stream: a WebSocket to /ws/<id>?token=, frames drawn from the preview to a canvas
// (at most 640 px wide) at 12 fps and sent as binary JPEG messages under 1.5 MB. A frame is
// skipped while the socket's bufferedAmount is high, so a slow network never queues frames.

const FPS = 12;
const MAX_WIDTH = 640;
const MAX_FRAME_BYTES = 1_500_000;
/** Above this many unsent bytes, frames are skipped until the socket drains. */
const HIGH_WATER_BYTES = 256 * 1024;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Streams `video` to the session. `onMessage({type, data})` gets each server message;
 * `onEnd({code, reason, error})` gets the close (once). Returns `{stop()}`.
 */
export function startStream({ sessionId, token, video, onOpen, onMessage, onEnd }) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const url = `${scheme}://${location.host}/ws/${encodeURIComponent(sessionId)}?token=${encodeURIComponent(token)}`;
  const socket = new WebSocket(url);
  socket.binaryType = 'arraybuffer';
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { alpha: false });
  let timer = null;
  let encoding = false;
  let ended = false;
  let lastError = null;
  let quality = 0.85;

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
        socket.send(bytes);
      } finally {
        encoding = false;
      }
    }, 'image/jpeg', quality);
  };

  socket.addEventListener('open', () => {
    clearTimeout(connectTimer);
    onOpen?.();
    timer = setInterval(sendFrame, Math.round(1000 / FPS));
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
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
