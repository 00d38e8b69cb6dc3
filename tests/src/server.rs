//! The server under test: building the `facegate` binary once, starting it on port 0 (the
//! kernel picks a free port, read back from the server's `listening` log line, so no two tests
//! can race for one) with a fresh database of either backend, its log and peak memory,
//! restarting it, and running its CLI against the same database.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::database::{Backend, TestDatabase};
use crate::repo_root;
/// Path of the `facegate` binary of the current profile, built on first use.
pub fn facegate_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "-q", "-p", "facegate"])
                .current_dir(repo_root())
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building facegate failed");
            // target/<profile>/deps/<this test> -> target/<profile>/facegate
            let exe = std::env::current_exe().expect("test binary path");
            let profile_dir = exe
                .parent()
                .and_then(|p| p.parent())
                .expect("target/<profile>");
            profile_dir.join("facegate")
        })
        .clone()
}

/// A TCP port on loopback that was free a moment ago, for a listener that must be named before
/// it starts (a webhook receiver the server is told of). The server itself binds port 0.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("free port")
}

/// Files a server may open after start-up without leaking: database pool connections and
/// worker sockets are opened lazily, up to their pool sizes.
const LEAK_ALLOWANCE: usize = 48;

const SECRET_ENV: &str = "FACEGATE__SECURITY__SERVER_SECRET";
const TEST_SERVER_SECRET: &str = "black-box-tests-server-secret-0123456789";

/// A running `facegate serve`, killed on drop.
#[derive(Debug)]
pub struct Server {
    pub child: Child,
    pub base_url: String,
    port: u16,
    env: Vec<(String, String)>,
    database: TestDatabase,
    data_dir: tempfile::TempDir,
    files_at_start: usize,
}

impl Server {
    /// The database this server uses (a SQLite file or a PostgreSQL URL).
    pub fn database_url(&self) -> String {
        self.database.url.clone()
    }

    /// The loopback port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The number of file descriptors the process holds (sockets included).
    pub fn open_files(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id()))
            .map(|dir| dir.count())
            .unwrap_or(0)
    }

    /// What the server has written to stdout and stderr so far (also printed when the server
    /// is dropped while `FACEGATE_TEST_SERVER_LOG` is set).
    pub fn log(&self) -> String {
        std::fs::read(self.data_dir.path().join("server.log"))
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default()
    }

    /// The process's peak resident memory (VmHWM) in MiB.
    pub fn peak_memory_mib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc status of the server");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kib| kib / 1024)
    }

    /// Ends a battery: prints how many inputs it tried and the peak memory, and asserts that
    /// the server is still running, never panicked and stayed under `max_mib` of memory.
    pub fn assert_battery_survived(&mut self, battery: &str, inputs_tried: usize, max_mib: u64) {
        assert!(
            matches!(self.child.try_wait(), Ok(None)),
            "{battery}: the server exited"
        );
        let peak = self.peak_memory_mib();
        // sockets and files come back once the battery's connections have closed
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut open = self.open_files();
        while open > self.files_at_start + LEAK_ALLOWANCE && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(200));
            open = self.open_files();
        }
        println!(
            "battery {battery}: {inputs_tried} inputs tried, peak memory {peak} MiB, \
             {open} open files ({} at start)",
            self.files_at_start
        );
        assert!(
            open <= self.files_at_start + LEAK_ALLOWANCE,
            "{battery}: {open} open files, {} at start: a leak",
            self.files_at_start
        );
        let log = self.log();
        assert!(
            !log.contains("panicked"),
            "{battery}: a panic in the server's log:\n{log}"
        );
        assert!(
            peak <= max_mib,
            "{battery}: peak memory {peak} MiB over the bound of {max_mib} MiB"
        );
    }

    /// SIGKILLs the process (no shutdown at all) and starts it again on the same database and
    /// port, waiting for `/healthz`.
    pub fn kill_and_restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.restart();
    }

    /// Starts the process again after it was stopped some other way (for example SIGTERM).
    /// It listens on a new port: `base_url` and `port` follow it.
    pub fn restart(&mut self) {
        let logged_before = self.log().len();
        self.child = spawn(self.data_dir.path(), &self.database.url, &self.env);
        self.await_listening(logged_before);
        if let Err(exit) = wait_healthy(&self.base_url, &mut self.child) {
            panic!("{exit}\n{}", self.log());
        }
    }

    /// Waits for the `listening` line the process logs after `logged_before` bytes of the log,
    /// and points `port` and `base_url` at the address it names.
    fn await_listening(&mut self, logged_before: usize) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let log = self.log();
            if let Some(port) = log.get(logged_before..).and_then(listening_port) {
                self.port = port;
                self.base_url = format!("http://127.0.0.1:{port}");
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("facegate exited before listening: {status}\n{log}");
            }
            assert!(
                Instant::now() < deadline,
                "facegate logged no `listening` line within 60 s (is RUST_LOG below info?)\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::env::var_os("FACEGATE_TEST_SERVER_LOG").is_some() {
            eprintln!("--- facegate log ({}) ---\n{}", self.base_url, self.log());
        }
    }
}

/// The port of the first `listening` line in `log` (the text format's `address=127.0.0.1:PORT`
/// or the JSON format's `"address":"127.0.0.1:PORT"`).
fn listening_port(log: &str) -> Option<u16> {
    let line = log.lines().find(|line| line.contains("listening"))?;
    let (_, after) = line.split_once("address")?;
    let address = after.trim_start_matches(['=', '"', ':']);
    let end = address
        .find(|c: char| c.is_whitespace() || c == '"' || c == ',')
        .unwrap_or(address.len());
    address[..end].rsplit_once(':')?.1.parse().ok()
}

fn spawn(data_dir: &std::path::Path, database_url: &str, env: &[(String, String)]) -> Child {
    let log = || -> Stdio {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(data_dir.join("server.log"))
            .map_or_else(|_| Stdio::null(), Stdio::from)
    };
    let mut command = Command::new(facegate_binary());
    command
        .current_dir(repo_root())
        .env("FACEGATE__SERVER__BIND", "127.0.0.1:0")
        // tests fire requests faster than the default per-key limit; the limit test overrides
        .env("FACEGATE__RATE_LIMIT__PER_SECOND", "10000")
        .env("FACEGATE__RATE_LIMIT__PER_MINUTE", "100000")
        .env("FACEGATE__DATABASE__URL", database_url)
        // the suites refuse credentials on purpose; tests/it/token_guessing.rs turns this on
        .env("FACEGATE__SECURITY__FAILED_CREDENTIALS_PER_MINUTE", "0")
        .stdout(log())
        .stderr(log());
    for (k, v) in env {
        command.env(k, v);
    }
    command.spawn().expect("facegate starts")
}

/// Waits until `/healthz` answers 200; `Err` with the exit status when the process ended first.
fn wait_healthy(base_url: &str, child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let healthy = ureq::get(&format!("{base_url}/healthz"))
            .call()
            .is_ok_and(|response| response.status() == 200);
        if healthy {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("facegate exited during start-up: {status}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("facegate did not answer /healthz within 60 s");
}

/// Starts the binary with a temporary SQLite database on a free port and waits until
/// `/healthz` answers 200 (at most 60 s).
pub fn start_server(extra_env: &[(&str, &str)]) -> Server {
    start_server_on(Backend::Sqlite, extra_env)
}

/// Starts the binary on a fresh database of `backend` and waits until it is healthy.
pub fn start_server_on(backend: Backend, extra_env: &[(&str, &str)]) -> Server {
    let mut server = start_unready_on(backend, extra_env);
    if let Err(exit) = wait_healthy(&server.base_url, &mut server.child) {
        panic!("{exit}\n{}", server.log());
    }
    server.files_at_start = server.open_files();
    server
}

/// Starts the binary and waits only until it listens, not until it is healthy (start-up
/// tests).
pub fn start_server_unready(extra_env: &[(&str, &str)]) -> Server {
    start_unready_on(Backend::Sqlite, extra_env)
}

fn start_unready_on(backend: Backend, extra_env: &[(&str, &str)]) -> Server {
    let data_dir = tempfile::tempdir().expect("temp dir");
    let database = TestDatabase::create(backend, data_dir.path());
    let mut env: Vec<(String, String)> = extra_env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    if backend == Backend::Postgres {
        // every replica on PostgreSQL shares one secret; the CLI needs it too
        env.insert(0, (SECRET_ENV.to_owned(), TEST_SERVER_SECRET.to_owned()));
    }
    let child = spawn(data_dir.path(), &database.url, &env);
    let mut server = Server {
        child,
        base_url: String::new(),
        port: 0,
        env,
        database,
        data_dir,
        files_at_start: 0,
    };
    server.await_listening(0);
    server
}

/// Runs a `facegate` CLI command against the server's database; returns stdout's last line.
pub fn cli(server: &Server, args: &[&str]) -> String {
    let mut env = vec![("FACEGATE__DATABASE__URL".to_owned(), server.database_url())];
    env.extend(server.env.iter().filter(|(k, _)| k == SECRET_ENV).cloned());
    run_cli(&env, args)
}

/// Runs a `facegate` CLI command with `env`; asserts success and returns stdout's last line.
pub fn run_cli(env: &[(String, String)], args: &[&str]) -> String {
    let output = Command::new(facegate_binary())
        .args(args)
        .current_dir(repo_root())
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .expect("facegate cli");
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::listening_port;

    #[test]
    fn the_port_is_read_from_either_log_format() {
        let text = "2026-11-27T01:00:00Z  INFO facegate::serve: listening; starting up \
                    address=127.0.0.1:40123 tls=false\n";
        assert_eq!(listening_port(text), Some(40123));
        let json = r#"{"level":"INFO","fields":{"message":"listening; starting up","address":"127.0.0.1:40124","tls":false}}"#;
        assert_eq!(listening_port(json), Some(40124));
        assert_eq!(listening_port("INFO facegate: models loaded\n"), None);
    }
}
