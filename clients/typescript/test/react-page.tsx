// The integrator's page of the browser test (tests/tests/it/clients.rs): a shop on a second
// origin that opens <FacegateVerification> on a click and writes the reported session id into
// its title, as the SDK's test page does. Bundled with esbuild; never shipped.

import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { FacegateVerification } from '../src/react';

function Shop() {
  const [open, setOpen] = useState(false);
  const sessionUrl = new URLSearchParams(window.location.search).get('session') ?? '';
  return (
    <main>
      <h1>Shop</h1>
      <button id="verify" type="button" onClick={() => setOpen(true)}>
        Verify me
      </button>
      {open && (
        <FacegateVerification
          sessionUrl={sessionUrl}
          onComplete={(sessionId) => {
            document.title = `done:${sessionId}`;
            setOpen(false);
          }}
          onCancel={() => {
            document.title = 'error:cancelled';
            setOpen(false);
          }}
        />
      )}
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Shop />);
