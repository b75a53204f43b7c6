//! The crypto behind every HTTPS client of the process (the CMS's, the OTLP exporter's, the
//! operator's admin client): rustls over ring, installed as the process default before the first
//! client is built. reqwest is built without a provider of its own (the workspace's
//! `Cargo.toml` says why), so a client built before this panics rather than go without TLS.

/// Installs ring as rustls's process default; later calls (and a provider already there) are
/// no-ops.
pub fn install() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Another thread may win the race: either way a provider is installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn installing_sets_the_process_default_and_again_changes_nothing() {
        super::install();
        let first = rustls::crypto::CryptoProvider::get_default().expect("a provider installed");
        super::install();
        let again = rustls::crypto::CryptoProvider::get_default().expect("still installed");
        assert!(
            std::sync::Arc::ptr_eq(first, again),
            "a second install replaced the first"
        );
    }
}
