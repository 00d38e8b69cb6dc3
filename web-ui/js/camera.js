// The front camera: getUserMedia with facingMode "user", every failure mapped to its own
// problem code, and a list of the cameras for the switcher.

/** A camera failure with the problem code the page shows (see problem.* messages). */
export class CameraProblem extends Error {
  constructor(code, cause) {
    super(code);
    this.code = code;
    this.cause = cause;
  }
}

const problemOf = (error) => {
  switch (error?.name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'not_allowed';
    case 'NotFoundError':
      return 'not_found';
    case 'NotReadableError':
    case 'AbortError':
      return 'not_readable';
    case 'OverconstrainedError':
      return 'overconstrained';
    default:
      return 'camera_other';
  }
};

/** Opens a camera: `deviceId` when given, else the front one. */
export async function openCamera(deviceId) {
  if (!window.isSecureContext || !navigator.mediaDevices?.getUserMedia) {
    throw new CameraProblem('insecure');
  }
  const video = deviceId
    ? { deviceId: { exact: deviceId }, width: { ideal: 640 }, height: { ideal: 480 } }
    : { facingMode: 'user', width: { ideal: 640 }, height: { ideal: 480 } };
  try {
    return await navigator.mediaDevices.getUserMedia({ video, audio: false });
  } catch (error) {
    throw new CameraProblem(problemOf(error), error);
  }
}

/** The video inputs (labels are known once permission was granted). */
export async function listCameras() {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((d) => d.kind === 'videoinput');
  } catch {
    return [];
  }
}

export function stopCamera(stream) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/**
 * Asks the camera to hold its exposure and white balance while the screen shows its colours
 * (issue 39): a white balance that answers a coloured screen pulls the whole frame the other
 * way. Only the modes the camera offers (`getCapabilities`) are asked for, and the settings
 * before are kept to restore. Resolves to `{locked, restore()}`: `locked` is whether the
 * camera reports its white balance held (`manual`) afterwards; the server is told so in each
 * frame's stamp and never passes or fails a session on it.
 */
export async function holdCameraProcessing(stream) {
  const track = stream?.getVideoTracks?.()[0];
  const none = { locked: false, restore: async () => {} };
  if (!track?.getCapabilities || !track.applyConstraints) return none;
  let capabilities;
  try {
    capabilities = track.getCapabilities();
  } catch {
    return none;
  }
  const before = track.getSettings?.() ?? {};
  const hold = {};
  const restore = {};
  for (const mode of ['whiteBalanceMode', 'exposureMode']) {
    if ((capabilities[mode] ?? []).includes('manual')) {
      hold[mode] = 'manual';
      if (before[mode]) restore[mode] = before[mode];
    }
  }
  if (!hold.whiteBalanceMode) return none;
  try {
    await track.applyConstraints({ advanced: [hold] });
  } catch {
    return none;
  }
  const locked = track.getSettings?.().whiteBalanceMode === 'manual';
  return {
    locked,
    restore: async () => {
      try {
        await track.applyConstraints(Object.keys(restore).length ? { advanced: [restore] } : {});
      } catch {
        // the camera keeps its held settings; the next session opens it afresh
      }
    },
  };
}
