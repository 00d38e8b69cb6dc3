// A React component that runs Facegate's verification flow in a modal frame on Facegate's
// origin and reports the session id when the flow ends. It speaks the same protocol as
// /sdk/facegate.js: the page inside posts `{type: "facegate:completed", session_id}` to this
// page only when this page's origin is in Facegate's `ui.embed_origins`, and only messages
// from that frame on Facegate's origin are believed. The verdict is not in the message: ask
// your server, which reads GET /api/v1/session/{id}/result.

import { useEffect, useMemo, useRef } from 'react';

export interface FacegateVerificationProps {
  /** `session_url` of the session your server created. */
  sessionUrl: string;
  /** Called once with the session id when the flow ends. */
  onComplete: (sessionId: string) => void;
  /** Called when the person closes the frame before the end. */
  onCancel?: () => void;
  /** A language of the page (`de`, `ar`, `pt-BR`…); else the browser's. */
  lang?: string;
  /** The dialog's accessible name. */
  title?: string;
  /** How long the result screen stays before `onComplete` (ms); 1500 by default, as the SDK. */
  completeDelayMs?: number;
}

export function FacegateVerification(props: FacegateVerificationProps) {
  const { sessionUrl, onComplete, onCancel, lang, title = 'Identity check', completeDelayMs = 1500 } = props;
  const frame = useRef<HTMLIFrameElement>(null);
  const done = useRef(false);
  // the latest callbacks, so a parent's re-render neither re-subscribes nor drops a pending call
  const callbacks = useRef({ onComplete, onCancel });
  callbacks.current = { onComplete, onCancel };
  const url = useMemo(() => {
    const next = new URL(sessionUrl, window.location.href);
    next.searchParams.set('embed', window.location.origin);
    if (lang) next.searchParams.set('lang', lang);
    return next;
  }, [sessionUrl, lang]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== url.origin || event.source !== frame.current?.contentWindow) return;
      const data = (event.data ?? {}) as { type?: string; session_id?: unknown };
      if (data.type === 'facegate:completed' && typeof data.session_id === 'string' && !done.current) {
        done.current = true;
        const sessionId = data.session_id;
        // the person sees the result screen before the page moves on
        timer = setTimeout(() => callbacks.current.onComplete(sessionId), completeDelayMs);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') callbacks.current.onCancel?.();
    };
    window.addEventListener('message', onMessage);
    document.addEventListener('keydown', onKey);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      window.removeEventListener('message', onMessage);
      document.removeEventListener('keydown', onKey);
    };
  }, [url, completeDelayMs]);

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={title}
      style={{
        position: 'fixed', inset: 0, zIndex: 2147483647, background: 'rgba(0,0,0,.6)',
        display: 'flex', alignItems: 'center', justifyContent: 'center',
      }}
    >
      <iframe
        ref={frame}
        src={url.toString()}
        allow={`camera ${url.origin}`}
        title={title}
        style={{ width: 'min(100vw,480px)', height: 'min(100vh,760px)', border: 0, borderRadius: 12, background: '#fff' }}
      />
      {onCancel && (
        <button
          type="button"
          aria-label="Close"
          onClick={onCancel}
          style={{
            position: 'absolute', top: 12, right: 12, width: 44, height: 44, borderRadius: '50%',
            border: 0, background: '#fff', color: '#1b1c1e', fontSize: 28, cursor: 'pointer',
          }}
        >
          ×
        </button>
      )}
    </div>
  );
}
