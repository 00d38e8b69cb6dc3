//! Test peers of the service: an HTTPS webhook receiver (a throw-away CA made with the system's
//! `openssl`, served with rustls) that records every request, and a plain-HTTP fake captcha
//! verifier speaking the siteverify protocol.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub headers: HashMap<String, String>,
    pub body: String,
}

/// A test certificate authority and a server certificate for 127.0.0.1 signed by it.
#[derive(Debug)]
pub struct TestCa {
    pub ca_file: PathBuf,
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
    _dir: tempfile::TempDir,
}

impl TestCa {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        let run = |args: &[&str]| {
            let out = Command::new("openssl")
                .args(args)
                .current_dir(d)
                .output()
                .expect("openssl is installed");
            assert!(
                out.status.success(),
                "openssl {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        std::fs::write(
            d.join("san.ext"),
            "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
        )
        .expect("ext file");
        run(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=facegate-test-ca",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ]);
        run(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            "/CN=127.0.0.1",
        ]);
        run(&[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "san.ext",
        ]);
        Self {
            ca_file: d.join("ca.pem"),
            cert_file: d.join("server.pem"),
            key_file: d.join("server.key"),
            _dir: dir,
        }
    }

    fn server_config(&self) -> Arc<rustls::ServerConfig> {
        let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&self.cert_file)
            .expect("cert file")
            .map(|c| c.expect("cert"))
            .collect();
        let key = PrivateKeyDer::from_pem_file(&self.key_file).expect("key");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        Arc::new(
            rustls::ServerConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("protocols")
                .with_no_client_auth()
                .with_single_cert(certs, key)
                .expect("server config"),
        )
    }
}

impl Default for TestCa {
    fn default() -> Self {
        Self::new()
    }
}

/// An HTTPS receiver on 127.0.0.1. `respond(n)` gives the status of the n-th request (0-based).
#[derive(Debug, Clone)]
pub struct HttpsReceiver {
    pub port: u16,
    received: Arc<Mutex<Vec<Received>>>,
}

impl HttpsReceiver {
    pub fn start(ca: &TestCa, port: u16, respond: impl Fn(usize) -> u16 + Send + 'static) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind receiver");
        let port = listener.local_addr().expect("addr").port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let config = ca.server_config();
        let log = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let Ok(connection) = rustls::ServerConnection::new(config.clone()) else {
                    continue;
                };
                let mut tls = rustls::StreamOwned::new(connection, stream);
                if let Some(request) = read_request(&mut tls) {
                    let n = {
                        let mut log = log.lock().expect("log");
                        log.push(request);
                        log.len() - 1
                    };
                    let status = respond(n);
                    let body = r#"{"status":"ok"}"#;
                    let _ = write!(
                        tls,
                        "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                        body.len()
                    );
                    let _ = tls.flush();
                    tls.conn.send_close_notify();
                    let _ = tls.flush();
                }
            }
        });
        Self { port, received }
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().expect("log").clone()
    }

    /// Waits up to `within` for at least `n` requests.
    pub fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let deadline = std::time::Instant::now() + within;
        while std::time::Instant::now() < deadline {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.received()
    }
}

fn read_request(stream: &mut impl Read) -> Option<Received> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut headers = HashMap::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':') {
            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
        }
    }
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length.min(1 << 20)];
    reader.read_exact(&mut body).ok()?;
    Some(Received {
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// A fake siteverify endpoint: `{"success": true}` only for the captcha token `good`.
pub fn fake_captcha_verifier() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind verifier");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
            let Some(request) = read_request(&mut stream) else {
                continue;
            };
            let success = request.body.split('&').any(|kv| kv == "response=good");
            let body = format!(r#"{{"success":{success}}}"#);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://127.0.0.1:{port}/siteverify")
}
