// The header's language switch: the page in the portal's other language (`app/languages.ts`),
// or that language's home page where it has no such page. Shown only when the portal is in
// another language (`/site`'s `languages`); a plain link, so it works before the app has run
// and opens the other language's own document (its strings, its `<html lang>`).
import { useLocation, useSearch } from 'wouter';

import { useGetCategoriesInQuery } from '../../features/categories';
import { useGetSiteQuery } from '../../features/site';
import { htmlLangOf, type Locale } from '../../lib/locale';
import { pageHref } from '../../lib/page-href';
import { otherLanguage, pageIn } from '../languages';

export function LanguageSwitch() {
  const { data: site } = useGetSiteQuery();
  const other = otherLanguage(site?.languages);
  if (!other || !site) return null;
  return <Switch other={other} name={site.languages.find((l) => l.code === other)?.name ?? other} />;
}

function Switch({ other, name }: { other: Locale; name: string }) {
  const [path] = useLocation();
  const search = useSearch();
  const { data: tree } = useGetCategoriesInQuery(other);
  const href = pageIn(other, path, search, tree) ?? pageHref('/', other);
  return (
    <a className="language-switch" href={href} hrefLang={htmlLangOf(other)} lang={htmlLangOf(other)}>
      {name}
    </a>
  );
}
