import { messages } from '../lib/locale';

const text = messages({
  zh: { loading: '正在加载…' },
  en: { loading: 'Loading…' },
});

export function Loading({ label }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="loading__spinner" aria-hidden="true" />
      {label ?? text().loading}
    </div>
  );
}
