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

  // the SDK's own two strings in every language of the page (web-ui/i18n: `title`,
  // `sdk.close`; a test holds this table to the catalogues)
  var MESSAGES = /*i18n*/{"en":{"title":"Identity check","close":"Close"},"es":{"title":"Verificación de identidad","close":"Cerrar"},"de":{"title":"Identitätsprüfung","close":"Schließen"},"fr":{"title":"Vérification d'identité","close":"Fermer"},"it":{"title":"Verifica dell'identità","close":"Chiudi"},"nl":{"title":"Identiteitscontrole","close":"Sluiten"},"pl":{"title":"Weryfikacja tożsamości","close":"Zamknij"},"pt-BR":{"title":"Verificação de identidade","close":"Fechar"},"ro":{"title":"Verificarea identității","close":"Închide"},"el":{"title":"Έλεγχος ταυτότητας","close":"Κλείσιμο"},"cs":{"title":"Ověření totožnosti","close":"Zavřít"},"sv":{"title":"Identitetskontroll","close":"Stäng"},"hu":{"title":"Személyazonosság ellenőrzése","close":"Bezárás"},"ar":{"title":"التحقق من الهوية","close":"إغلاق"},"he":{"title":"אימות זהות","close":"סגירה"},"hi":{"title":"पहचान की जाँच","close":"बंद करें"},"zh-CN":{"title":"身份验证","close":"关闭"},"ja":{"title":"本人確認","close":"閉じる"},"ko":{"title":"본인 확인","close":"닫기"},"tr":{"title":"Kimlik doğrulama","close":"Kapat"},"id":{"title":"Verifikasi identitas","close":"Tutup"}}/*i18n*/;

  /** The messages of `lang` (a BCP 47 tag): exact, else by primary language, else English. */
  function messagesFor(lang) {
    var tag = String(lang || '').replace('_', '-');
    for (var key in MESSAGES) if (key.toLowerCase() === tag.toLowerCase()) return MESSAGES[key];
    var primary = tag.split('-')[0].toLowerCase();
    for (var other in MESSAGES) if (other.split('-')[0] === primary) return MESSAGES[other];
    return MESSAGES.en;
  }

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
      var text = messagesFor(options.lang || (global.navigator && global.navigator.language));
      var opener = document.activeElement;

      var overlay = document.createElement('div');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', options.title || text.title);
      overlay.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);' +
        'display:flex;align-items:center;justify-content:center';
      var frame = document.createElement('iframe');
      frame.src = url.toString();
      frame.allow = 'camera ' + facegateOrigin;
      frame.title = options.title || text.title;
      frame.style.cssText =
        'width:min(100vw,480px);height:min(100vh,760px);border:0;border-radius:12px;background:#fff';
      var close = document.createElement('button');
      close.type = 'button';
      close.textContent = '\u00d7';
      close.setAttribute('aria-label', options.closeLabel || text.close);
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
