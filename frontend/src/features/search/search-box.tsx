import { useId, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';

import { messages } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import { MAX_KEYWORD, normalizeKeyword, searchHref } from './keyword';

const text = messages({
  zh: {
    search: '站内搜索',
    submit: '搜索',
    hint: (max: number) => `请输入 1 到 ${max} 个字的关键词。`,
  },
  en: {
    search: 'Search the site',
    submit: 'Search',
    hint: (max: number) => `Please enter a keyword of 1 to ${max} characters.`,
  },
});

interface SearchBoxProps {
  /** The keyword shown at first (the results page's own). */
  initial?: string;
  /** Called after a search starts (the phone menu closes). */
  onSearch?: () => void;
  /** The search landmark's name: each on a page needs its own (the header's and the results page's). */
  label?: string;
}

/** 站内搜索: a keyword, then the results route. */
export function SearchBox({ initial = '', onSearch, label }: SearchBoxProps) {
  const t = text();
  const [, navigate] = useLocation();
  const [value, setValue] = useState(initial);
  const [hint, setHint] = useState('');
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The field as the visitor sees it: typed before the app hydrated the page, it is not yet in
    // `value` when the press comes during hydration (React replays the press at once, the typing
    // later), and the search was the server's keyword.
    const field = event.currentTarget.elements.namedItem('q');
    const keyword = normalizeKeyword(field instanceof HTMLInputElement ? field.value : value);
    if (!keyword) {
      setHint(t.hint(MAX_KEYWORD));
      return;
    }
    setHint('');
    navigate(searchHref(keyword));
    onSearch?.();
  };
  return (
    <form role="search" aria-label={label ?? t.search} className="search-box" action={pageHref('/search')} method="get" onSubmit={submit} noValidate>
      <label htmlFor={id} className="visually-hidden">
        {t.search}
      </label>
      <input
        id={id}
        type="search"
        name="q"
        placeholder={t.search}
        maxLength={MAX_KEYWORD + 20}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <button type="submit">{t.submit}</button>
      {hint && (
        <span id={`${id}-hint`} className="search-box__hint" role="alert">
          {hint}
        </span>
      )}
    </form>
  );
}
