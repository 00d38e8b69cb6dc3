/*! Facegate verification SDK. Include with
 *    <script src="https://facegate.example/sdk/facegate.js"></script>
 *  then
 *    const { sessionId } = await Facegate.verify(sessionUrl);
 *  The flow runs in a modal iframe on Facegate's origin; the promise resolves with the session
 *  id when the flow ends. The verdict is not in the message: read it on your server with
 *  GET /api/v1/session/{id}/result (the authoritative answer). Your page's origin must be listed
 *  in Facegate's `ui.embed_origins`.
 */
(function (global) {
  'use strict';

  function verify(sessionUrl, options) {
    options = options || {};
    return new Promise(function (resolve, reject) {
      var url;
      try {
        url = new URL(sessionUrl, global.location.href);
      } catch (e) {
        reject(new Error('Facegate: sessionUrl is not a URL'));
        return;
      }
      url.searchParams.set('embed', global.location.origin);
      if (options.lang) url.searchParams.set('lang', options.lang);
      var facegateOrigin = url.origin;
      var opener = document.activeElement;

      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', options.title || 'Identity check');
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);' +
        'display:flex;align-items:center;justify-content:center';
      var frame = document.createElement('iframe');
      frame.src = url.toString();
      frame.allow = 'camera ' + facegateOrigin;
      frame.title = options.title || 'Identity check';
      frame.style.cssText =
        'width:min(100vw,480px);height:min(100vh,760px);border:0;border-radius:12px;background:#fff';
      var close = document.createElement('button');
      close.type = 'button';
      close.textContent = '\u00d7';
      close.setAttribute('aria-label', options.closeLabel || 'Close');
      close.style.cssText =
        'position:absolute;top:12px;right:12px;width:44px;height:44px;border-radius:50%;' +
        'border:0;background:#fff;color:#1b1c1e;font-size:28px;cursor:pointer';
      overlay.appendChild(frame);
      overlay.appendChild(close);

      function finish() {
        global.removeEventListener('message', onMessage);
        document.removeEventListener('keydown', onKey);
        overlay.remove();
        if (opener && opener.focus) opener.focus();
      }
      function onMessage(event) {
        // only Facegate's own frame, on Facegate's origin, is believed
        if (event.origin !== facegateOrigin || event.source !== frame.contentWindow) return;
        var data = event.data || {};
        if (data.type === 'facegate:completed' && typeof data.session_id === 'string') {
          setTimeout(function () {
            finish();
            resolve({ sessionId: data.session_id });
          }, options.closeDelayMs === undefined ? 1500 : options.closeDelayMs);
        }
      }
      function onKey(event) {
        if (event.key === 'Escape') cancel();
      }
      function cancel() {
        finish();
        reject(new Error('Facegate: the user closed the verification'));
      }
      close.addEventListener('click', cancel);
      global.addEventListener('message', onMessage);
      document.addEventListener('keydown', onKey);
      document.body.appendChild(overlay);
      frame.focus();
    });
  }

  global.Facegate = { verify: verify, version: '1' };
})(window);
