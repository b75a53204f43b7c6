import { useEffect } from 'react';

import { useGetSiteQuery } from './api';

/** `/login`: the portal has no sign-in of its own; it sends the visitor to the external login page. */
export default function LoginPage() {
  const { data: site, isError } = useGetSiteQuery();
  useEffect(() => {
    if (site?.loginUrl) window.location.assign(site.loginUrl);
  }, [site]);
  return (
    <section className="content-page login-page">
      <h1>登录</h1>
      {isError || (site && !site.loginUrl) ? (
        <p>暂时无法打开登录页面，请稍后再试。</p>
      ) : (
        <p role="status">正在跳转到统一登录页面…</p>
      )}
      {site?.loginUrl && (
        <p>
          如果页面没有自动跳转，请<a href={site.loginUrl}>点击这里登录</a>。
        </p>
      )}
    </section>
  );
}
