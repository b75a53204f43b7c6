use crate::helpers::*;

#[tokio::test]
async fn dump() {
    let app = spawn_pages_with_reference_cms().await;
    for path in ["/portal/", "/portal/news_center/notice", "/portal/article/2101", "/portal/about/company_profile", "/portal/nope", "/portal/news_center", "/portal/search?q=%E7%8F%AD%E5%88%97", "/portal/article/999999", "/portal/news_center/company_announcement/1?page=2"] {
        let r = app.get(path).await;
        let s = r.status();
        let h = format!("{:?}", r.headers());
        let t = r.text().await.unwrap();
        let name = path.replace('/', "_").replace('?', "_");
        std::fs::write(format!("/tmp/dump{name}.html"), format!("{s}\n{h}\n{t}")).unwrap();
    }
}
