//! Built-in TLS: the rustls server configuration from `server.tls.cert_file` and
//! `server.tls.key_file` (PEM), on the ring provider that the webhook client also uses.

use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use services::settings::TlsSettings;

/// The server configuration, or a message naming the file that is wrong.
pub fn server_config(tls: &TlsSettings) -> Result<rustls::ServerConfig, String> {
    let cert_file = tls.cert_file.trim();
    let key_file = tls.key_file.trim();
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert_file)
        .map_err(|e| format!("server.tls.cert_file {cert_file}: {e}"))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("server.tls.cert_file {cert_file}: {e}"))?;
    if certs.is_empty() {
        return Err(format!("server.tls.cert_file {cert_file}: no certificate"));
    }
    let key = PrivateKeyDer::from_pem_file(key_file)
        .map_err(|e| format!("server.tls.key_file {key_file}: {e}"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("server.tls: the key does not fit the certificate: {e}"))
}
