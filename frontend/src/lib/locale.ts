// The language a page is in: Chinese, the site's own, at `/portal/…`, or English at
// `/portal/en/…` when the gateway is configured with it (`[languages.en]`). One language a
// document: the browser reads it from the page's `<html lang>`, which the gateway wrote; the
// server render is told it with each call (`server.tsx`; a render thread runs one call at a time,
// so a module-level value is the call's). A switch of language is a new page.
//
// Every string the app shows is written in both, beside the code that shows it, as a table per
// module: `const text = messages({ zh: {…}, en: {…} })`, read in a render as `text().title`
// (never at a module's top level: the server renders both languages with the same modules).

export type Locale = 'zh' | 'en';

/**
 * The languages the app is written in: the site's own and the gateway's `APP_LANGUAGES`
 * (`model::site`'s test `the_apps_languages_are_the_gateways` reads this line).
 */
export const LOCALES: readonly Locale[] = ['zh', 'en'];

let current: Locale = 'zh';

/** The language of the page being rendered. */
export const locale = (): Locale => current;

/** Sets the page's language: once in the browser, before the app starts; per call on the server. */
export function setLocale(next: Locale): void {
  current = next;
}

/** A page's language from its `<html lang>` (`en`, else the site's own). */
export const localeOfLang = (lang: string | null | undefined): Locale => (lang === 'en' ? 'en' : 'zh');

/** What `<html lang>` says for a language (and `hreflang`). */
export const htmlLangOf = (of: Locale): string => (of === 'en' ? 'en' : 'zh-CN');

/** Whether the page is in the site's own language (Chinese). */
export const isSiteLanguage = (): boolean => current === 'zh';

/**
 * A module's strings in each language, read for the page's: `text().title`. Both tables have
 * the same keys (TypeScript holds the English to the Chinese); a value may be a function of what
 * it says (`total: (n: number) => …`).
 */
export function messages<T>(tables: { zh: T; en: NoInfer<T> }): () => T {
  return () => tables[current];
}

/** A number written as the page's language writes it (`1,234` in English, `1234` in Chinese). */
export const formatNumber = (n: number): string => (current === 'en' ? n.toLocaleString('en-US') : String(n));
