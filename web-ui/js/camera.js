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
