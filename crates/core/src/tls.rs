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
    fn a_client_can_be_built_once_installed() {
        super::install();
        super::install();
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
