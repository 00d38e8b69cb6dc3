// A random id kept in this browser, so that direct-session attempts are counted per browser
// (with the client address). Undefined where storage is blocked.

export function fingerprint() {
  try {
    let id = localStorage.getItem('facegate.fingerprint');
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem('facegate.fingerprint', id);
    }
    return id;
  } catch {
    return undefined;
  }
}
