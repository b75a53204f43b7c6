//! What a crawlable page loads besides itself: its stylesheets, built into the binary (the pages
//! must look right with no app built at all), and the app build's small enhancement script
//! (`frontend/src/site-enhance`, `assets/site.<hash>.js`) when the build has one.
//!
//! The stylesheets' links carry a fingerprint of their text (`page.css?v=…`), so a page made by a
//! new gateway asks for the new sheet at once, while a browser keeps a sheet an hour as before.

use std::{sync::OnceLock, time::Duration};

use axum::{http::StatusCode, response::Response};
use bytes::Bytes;

use crate::{
    cache::{Entry, MediaType, Outcome, Timing, respond},
    request::RequestInfo,
    state::Runtime,
    static_files::BASE,
};

/// A stylesheet the pages link, served from the binary.
pub struct Sheet {
    /// Its file name under `/portal/site/`.
    pub name: &'static str,
    text: &'static str,
    entry: OnceLock<Entry>,
    href: OnceLock<String>,
}

impl Sheet {
    const fn new(name: &'static str, text: &'static str) -> Self {
        Self {
            name,
            text,
            entry: OnceLock::new(),
            href: OnceLock::new(),
        }
    }

    /// `/portal/site/<name>?v=<fingerprint of the text>`.
    pub fn href(&self) -> &str {
        self.href.get_or_init(|| {
            let hash = self.text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
            format!(
                "/portal/site/{}?v={:012x}",
                self.name,
                hash & 0xffff_ffff_ffff
            )
        })
    }

    /// The sheet, encoded once per process, kept by browsers an hour.
    pub fn serve(&self, info: RequestInfo) -> Response {
        let entry = self.entry.get_or_init(|| {
            Entry::of(
                MediaType::Css,
                StatusCode::OK,
                Bytes::from_static(self.text.as_bytes()),
            )
        });
        respond(
            entry,
            Outcome::Hit,
            &info.into_wants(),
            Timing::fresh(Duration::from_secs(3600)),
        )
    }
}

/// The portal's look for every visitor.
pub static PAGE_CSS: Sheet = Sheet::new("page.css", include_str!("page.css"));
/// Linked inside `<noscript>`: without JavaScript the phone menu shows whole, as plain links, and
/// the tools that need a script are not reserved room for.
pub static NOSCRIPT_CSS: Sheet = Sheet::new("noscript.css", include_str!("noscript.css"));

/// The sheet `/portal/site/<name>` names, if any.
pub fn sheet(name: &str) -> Option<&'static Sheet> {
    [&PAGE_CSS, &NOSCRIPT_CSS]
        .into_iter()
        .find(|sheet| sheet.name == name)
}

/// What a page links: the sheets and, when the app's build has one, the enhancement script.
pub struct Assets {
    pub css: &'static str,
    pub noscript_css: &'static str,
    /// `/portal/assets/site.<hash>.js`; none when the app is not built (the page works without).
    pub script: Option<String>,
    /// The app's icon, `/portal/favicon.svg`, when the build has it (else the browser asks for
    /// `/favicon.ico`, which nothing answers, and logs the 404 as an error).
    pub icon: Option<String>,
}

impl Assets {
    /// What a page's cache key carries so that a page never names assets its gateway does not
    /// serve: the sheets' and the script's addresses are fingerprinted, and a page kept in the
    /// shared tier by a replica of an older build (a rolling update), or kept before the app was
    /// rebuilt, would otherwise link a script or sheet that is gone.
    pub fn version(runtime: &Runtime) -> u64 {
        let assets = Self::of(runtime);
        [
            assets.css,
            assets.noscript_css,
            assets.script.as_deref().unwrap_or(""),
            assets.icon.as_deref().unwrap_or(""),
        ]
        .iter()
        .flat_map(|href| href.bytes().chain([0]))
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
    }

    pub fn of(runtime: &Runtime) -> Self {
        Self {
            css: PAGE_CSS.href(),
            noscript_css: NOSCRIPT_CSS.href(),
            script: runtime
                .app_files
                .site_script()
                .map(|path| format!("{BASE}{path}")),
            icon: runtime
                .app_files
                .has("/favicon.svg")
                .then(|| format!("{BASE}/favicon.svg")),
        }
    }
}
