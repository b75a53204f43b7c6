import { useEffect, useState } from 'react';

import { NOTICE_DURATION_MS, subscribe, type Notice } from '../lib/notify';

/** Shows request-layer messages at top 65 px, centred, each closing itself after 1.5 s. */
export function Notifications() {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(
    () =>
      subscribe((notice) => {
        setNotices((list) => [...list.filter((n) => n.message !== notice.message), notice]);
        setTimeout(() => setNotices((list) => list.filter((n) => n.id !== notice.id)), NOTICE_DURATION_MS);
      }),
    [],
  );
  return (
    <div className="notifications" role="status" aria-live="assertive">
      {notices.map((n) => (
        <div key={n.id} className={`notification notification--${n.kind}`}>
          <span className="notification__icon" aria-hidden="true">
            !
          </span>
          {n.message}
        </div>
      ))}
    </div>
  );
}
