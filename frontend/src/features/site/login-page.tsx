import { useEffect } from 'react';

import { messages } from '../../lib/locale';
import { useGetSiteQuery } from './api';

const text = messages({
  zh: {
    title: '登录',
    unavailable: '暂时无法打开登录页面，请稍后再试。',
    redirecting: '正在跳转到统一登录页面…',
    notRedirected: '如果页面没有自动跳转，请',
    signInHere: '点击这里登录',
    end: '。',
  },
  en: {
    title: 'Sign in',
    unavailable: 'The sign-in page cannot be opened at the moment. Please try again later.',
    redirecting: 'Taking you to the sign-in page…',
    notRedirected: 'If you are not redirected automatically, ',
    signInHere: 'sign in here',
    end: '.',
  },
});

/** `/login`: the portal has no sign-in of its own; it sends the visitor to the external login page. */
export default function LoginPage() {
  const t = text();
  const { data: site, isError } = useGetSiteQuery();
  useEffect(() => {
    if (site?.loginUrl) window.location.assign(site.loginUrl);
  }, [site]);
  return (
    <section className="content-page login-page">
      <h1>{t.title}</h1>
      {isError || (site && !site.loginUrl) ? (
        <p>{t.unavailable}</p>
      ) : (
        <p role="status">{t.redirecting}</p>
      )}
      {site?.loginUrl && (
        <p>
          {t.notRedirected}
          <a href={site.loginUrl}>{t.signInHere}</a>
          {t.end}
        </p>
      )}
    </section>
  );
}
