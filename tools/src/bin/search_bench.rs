//! What the built-in search index costs and gives, on 10 000 generated articles of real length
//! (Chinese text of 600–1 500 characters from a rail-freight vocabulary, across the demo's list
//! categories):
//!
//! 1. the index alone: build time, the process's memory before and after, and query latency
//!    (p50, p99) over a fixed set of queries (words, words inside words, two words, phrases);
//! 2. through HTTP on loopback: reference-cms serving the 10 000 articles in process, the gateway
//!    in process with `[search] mode = "index"` in front of it: the time from start to a ready
//!    index (the real walk: list pages and every article through the CMS), then the latency of
//!    the gateway's `/portal/api/article/search` (each query asked once: a cache miss, answered by
//!    the index) against reference-cms's own `/article/search` (a substring scan) for the same
//!    queries, with how many hits each found.
//!
//! Usage: target/release/search_bench [ARTICLES]  (`make bench-search`)

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use portal_content::Ask;
use portal_search::{
    Engine,
    engine::Doc,
    text::{html_text, warm_up},
};

/// Words of the rail-freight trade, the generated text's vocabulary.
const WORDS: &[&str] = &[
    "中欧班列",
    "陆港",
    "集团",
    "多式联运",
    "海铁联运",
    "冷链",
    "集装箱",
    "场站",
    "口岸",
    "换装",
    "回程",
    "整车出口",
    "跨境电商",
    "海外仓",
    "分拨中心",
    "集卡",
    "闸口",
    "智能调度",
    "运单",
    "报关",
    "通关",
    "查验",
    "保税",
    "物流园区",
    "产业园",
    "招商",
    "签约",
    "开行",
    "首发",
    "专列",
    "线路",
    "站点",
    "汉堡",
    "杜伊斯堡",
    "罗兹",
    "布达佩斯",
    "阿拉木图",
    "马拉舍维奇",
    "多斯特克",
    "长安号",
    "运输",
    "货值",
    "货运量",
    "标箱",
    "吞吐量",
    "同比增长",
    "环比",
    "季度",
    "年度",
    "安全生产",
    "隐患排查",
    "应急演练",
    "培训",
    "职工",
    "工会",
    "党建",
    "党支部",
    "廉洁",
    "纪检",
    "监督",
    "招标",
    "采购",
    "公告",
    "通知",
    "会议",
    "部署",
    "推进",
    "落实",
    "保障",
    "服务",
    "客户",
    "企业",
    "合作",
    "协议",
    "战略",
    "发展",
    "规划",
    "数字化",
    "信息化",
    "平台",
    "系统",
    "效率",
    "成本",
    "时效",
    "准点率",
    "绿色",
    "低碳",
    "光伏",
    "新能源",
    "乡村振兴",
    "帮扶",
    "志愿服务",
    "社会责任",
    "稳定",
    "质量",
    "标准",
    "验收",
    "示范工程",
    "创新",
    "技术",
    "装备",
    "铁路",
    "公路",
    "航空",
    "港口",
    "枢纽",
    "节点",
    "通道",
    "沿线",
    "国家",
    "城市",
    "省",
    "汽车配件",
    "电子产品",
    "机械设备",
    "日用百货",
    "农产品",
    "木材",
    "化工品",
    "粮食",
];
const GLUE: &[&str] = &[
    "的", "和", "在", "对", "将", "已", "与", "为", "把", "了", "是", "及",
];
const LIST_CATEGORIES: &[u64] = &[21, 22, 23, 41, 42, 43, 61, 102, 103, 104, 111, 112, 113];

/// A small fixed generator: the same articles every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
    fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.next() % (high - low + 1)
    }
}

fn sentence(rng: &mut Rng) -> String {
    let mut s = String::new();
    for i in 0..rng.between(6, 14) {
        if i > 0 && rng.next().is_multiple_of(3) {
            s.push_str(rng.pick(GLUE));
        }
        s.push_str(rng.pick(WORDS));
        if rng.next().is_multiple_of(9) {
            s.push_str(&format!("{}", rng.between(2, 2026)));
        }
    }
    s.push_str(if rng.next().is_multiple_of(4) {
        "；"
    } else {
        "。"
    });
    s
}

fn generated(count: usize) -> Vec<reference_cms::Article> {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    (0..count)
        .map(|i| {
            let mut title = String::new();
            while title.chars().count() < 12 {
                title.push_str(rng.pick(WORDS));
            }
            let mut body = String::new();
            while body.chars().count() < rng.between(600, 1500) as usize {
                body.push_str("<p>");
                for _ in 0..rng.between(2, 5) {
                    body.push_str(&sentence(&mut rng));
                }
                body.push_str("</p>");
            }
            let day = i % 700;
            let summary = sentence(&mut rng);
            let mut extra = serde_json::Map::new();
            extra.insert("summary".into(), summary.into());
            reference_cms::Article {
                id: 100_000 + i as u64,
                category_id: LIST_CATEGORIES[i % LIST_CATEGORIES.len()],
                title,
                publish_time: format!(
                    "{}-{:02}-{:02} 09:00:00",
                    2024 + day / 336,
                    1 + (day / 28) % 12,
                    1 + day % 28
                ),
                content: body,
                extra,
            }
        })
        .collect()
}

fn queries() -> Vec<String> {
    let mut out: Vec<String> = WORDS.iter().take(60).map(|w| (*w).to_owned()).collect();
    // Inside words, across a dictionary's words, two words, phrases, traditional forms.
    out.extend(
        [
            "欧班",
            "班列",
            "联运",
            "港口换装",
            "冷链 专列",
            "汉堡 回程",
            "\"中欧班列开行\"",
            "“海铁联运”",
            "長安號",
            "物流園區",
            "安全 培训 职工",
            "2025",
            "招标公告",
        ]
        .map(str::to_owned),
    );
    out
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
    println!(
        "  {name:<44} p50 {:>8.3} ms   p99 {:>8.3} ms   ({} queries)",
        p50.as_secs_f64() * 1000.0,
        p99.as_secs_f64() * 1000.0,
        times.len()
    );
    (p50, p99)
}

fn ask(keyword: &str) -> Ask {
    Ask {
        keyword: keyword.to_owned(),
        section: None,
        from: None,
        to: None,
        page: 1,
        size: 10,
        fragment_chars: 120,
    }
}

fn index_alone(articles: &[reference_cms::Article]) {
    println!("1. the index alone ({} articles)", articles.len());
    warm_up();
    let before = rss_kib();
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("a folder for the index");
    let engine = Engine::open(Some(dir.path()), 32 * 1024 * 1024).expect("index");
    for chunk in articles.chunks(256) {
        let docs = chunk
            .iter()
            .map(|a| {
                let card: portal_core::model::Article = serde_json::from_value(serde_json::json!({
                    "id": a.id, "categoryId": a.category_id, "title": a.title,
                    "summary": a.extra.get("summary"), "publishTime": a.publish_time,
                }))
                .expect("card");
                Doc {
                    article: card,
                    body: html_text(&a.content, 20_000),
                    sections: vec![a.category_id.into()],
                    fingerprint: 0,
                    summary_indexed: true,
                }
            })
            .collect();
        engine.put(docs).expect("put");
    }
    engine.commit().expect("commit");
    let took = started.elapsed();
    let after = rss_kib();
    let on_disk: u64 = std::fs::read_dir(dir.path())
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0);
    let chars: usize = articles
        .iter()
        .map(|a| html_text(&a.content, 20_000).chars().count())
        .sum();
    println!(
        "  built in {:.2} s ({:.0} articles/s), {} MiB of body text; the index {} MiB on disk; process RSS {} → {} MiB (+{} MiB, the writer's 32 MiB arena and the mapped index included)",
        took.as_secs_f64(),
        articles.len() as f64 / took.as_secs_f64(),
        chars * 3 / 1024 / 1024,
        on_disk / 1024 / 1024,
        before / 1024,
        after / 1024,
        after.saturating_sub(before) / 1024
    );
    let queries = queries();
    let mut times = Vec::new();
    for _ in 0..5 {
        for q in &queries {
            let t = Instant::now();
            let found = engine.search(&ask(q)).expect("search");
            times.push(t.elapsed());
            std::hint::black_box(found.total);
        }
    }
    report("index query (hits, fragments, section counts)", times);
}

async fn over_http(articles: Vec<reference_cms::Article>) {
    println!("2. over HTTP on loopback");
    let count = articles.len();
    let demo = reference_cms::Content::load(&reference_cms::default_content_dir()).expect("demo");
    let content =
        reference_cms::Content::new(demo.categories().to_vec(), articles).expect("content");
    let mut settings = reference_cms::Settings::from_env();
    settings.content_dir = reference_cms::default_content_dir();
    settings.delay = Duration::ZERO;
    settings.webhook = None;
    let (id, secret) = (settings.client_id.clone(), settings.client_secret.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let cms: SocketAddr = listener.local_addr().unwrap();
    let router = reference_cms::router(&settings, content);
    tokio::spawn(async move { axum::serve(listener, router).await });

    let config = portal_web::Config::from_toml_str(&format!(
        r#"
[server]
listen = "127.0.0.1:0"
static_dir = "/nonexistent"
access_log = false
log_level = "warn"
[site]
company_name = "云川陆港集团"
[upstream]
base_url = "http://{cms}/"
client_id = "{id}"
client_secret = "{secret}"
timeout = "10s"
[limits]
per_client_per_second = 1000000
per_client_burst = 1000000
per_client_cms_per_second = 1000000
per_client_cms_burst = 1000000
upstream_per_second = 1000000
upstream_burst = 1000000
upstream_concurrency = 64
[cache]
max_bytes = 268435456
[search]
mode = "index"
concurrency = 8
"#
    ))
    .expect("config");
    let started = Instant::now();
    let app = portal_web::Application::build(config)
        .await
        .expect("gateway");
    let gateway = app.local_addr();
    tokio::spawn(app.run_until(std::future::pending()));
    let client = reqwest::Client::new();
    let api = |q: &str, page: u32| {
        format!(
            "http://{gateway}/portal/api/article/search?keyword={}&page={page}&size=10",
            url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>()
        )
    };
    loop {
        let answer = client.get(api("班列", 1)).send().await.unwrap();
        if answer.status() == 200 {
            let body: serde_json::Value = answer.json().await.unwrap();
            if body["result"]["source"] == "index" {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "  gateway start → index of {count} articles ready: {:.2} s (the lists and every article read through the CMS)",
        started.elapsed().as_secs_f64()
    );
    let queries = queries();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut ours_found, mut theirs_found) = (0u64, 0u64);
    // Each query on three pages: every ask a cache miss the index answers.
    for page in 2..=4 {
        for q in &queries {
            let t = Instant::now();
            let body: serde_json::Value = client
                .get(api(q, page))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            ours.push(t.elapsed());
            ours_found += body["result"]["totalElements"].as_u64().unwrap_or(0);
            let t = Instant::now();
            let body: serde_json::Value = client
                .get(format!(
                    "http://{cms}/article/search?keyword={}&page={}&size=10",
                    url::form_urlencoded::byte_serialize(q.as_bytes()).collect::<String>(),
                    page - 1
                ))
                .basic_auth(&id, Some(&secret))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            theirs.push(t.elapsed());
            theirs_found += body["result"]["totalElements"].as_u64().unwrap_or(0);
        }
    }
    let (o50, o99) = report("gateway /portal/api/article/search (index)", ours);
    let (t50, t99) = report("reference-cms /article/search (substring scan)", theirs);
    println!(
        "  ratio reference-cms / gateway: p50 {:.1}x, p99 {:.1}x; hits found: gateway {ours_found}, reference-cms {theirs_found}",
        t50.as_secs_f64() / o50.as_secs_f64(),
        t99.as_secs_f64() / o99.as_secs_f64()
    );
}

#[tokio::main]
async fn main() {
    portal_core::tls::install();
    let count = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(10_000);
    let articles = generated(count);
    index_alone(&articles);
    over_http(articles).await;
}
