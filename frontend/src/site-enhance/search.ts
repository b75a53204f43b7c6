import { normalizeKeyword, searchHref } from '../features/search/keyword';

import { find, reveal } from './dom';

/**
 * 站内搜索 in the header: the results are the app's (`/portal/#/search?q=…`, the route and query
 * the app's search box uses). The gateway writes the form only when the CMS searches.
 */
export function enhanceSearch(): void {
  const form = find<HTMLFormElement>('form[data-search]');
  const input = form && find<HTMLInputElement>('input', form);
  if (!form || !input) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const keyword = normalizeKeyword(input.value);
    if (keyword === null) {
      input.focus();
      return;
    }
    window.location.assign(`/portal/#${searchHref(keyword)}`);
  });
  reveal(form);
}
