use crate::helpers::*;

#[tokio::test]
async fn dump() {
    let app = spawn_pages_with_reference_cms().await;
    let mut out = String::new();
    for path in [
        "/portal/development_history",
        "/portal/party",
        "/portal/business_overview/fuse",
        "/portal/social_responsibility/friend_cooperation",
        "/portal/sitemap",
        "/portal/contact",
        "/portal/accessibility",
        "/portal/login",
        "/portal/party/detail?id=4301",
        "/portal/news_center/notice?page=0",
        "/portal/news_center/notice?page=999",
        "/portal/article/abc",
        "/portal/article/0",
        "/portal/social_responsibility",
        "/portal/party-construction/clean-honest",
        "/portal/topics/decade",
        "/portal/site/news_center/notice.html?page=2",
        "/portal/site/article/2101.html",
        "/portal/site/",
        "/portal/site",
        "/portal/site/index.html",
        "/portal/site/nothing.html",
        "/portal/site/page.css",
        "/portal/feed/21.xml",
        "/portal/sitemap.xml",
        "/portal/search",
        "/portal/search?q=",
        "/portal/article/2101?listPage=2",
        "/portal/news_center/",
        "/portal/News_Center",
    ] {
        let t0 = std::time::Instant::now();
        let r = app.get(path).await;
        let s = r.status();
        let loc = r
            .headers()
            .get("location")
            .map(|v| v.to_str().unwrap().to_owned());
        let xc = r
            .headers()
            .get("x-cache")
            .map(|v| v.to_str().unwrap().to_owned());
        let t = r.text().await.unwrap();
        let title = t
            .split("<title>")
            .nth(1)
            .and_then(|x| x.split("</title>").next())
            .unwrap_or("");
        let h1 = t
            .split("<h1")
            .nth(1)
            .and_then(|x| x.split("</h1>").next())
            .unwrap_or("");
        let canon = t
            .split("rel=\"canonical\" href=\"")
            .nth(1)
            .and_then(|x| x.split('"').next())
            .unwrap_or("");
        out.push_str(&format!(
            "{path}: {s} {loc:?} {xc:?} {:?} title={title} h1={h1} canon={canon} len={}\n",
            t0.elapsed(),
            t.len()
        ));
        let name = path.replace('/', "_").replace('?', "_");
        std::fs::write(format!("/tmp/dump2{name}.html"), &t).unwrap();
    }
    std::fs::write("/tmp/dump2.txt", out).unwrap();
}
