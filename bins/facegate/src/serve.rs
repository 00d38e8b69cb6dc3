//! `facegate serve`: listens at once (answering 502 `backend_starting` while it prepares), then
//! opens and migrates the database, rebuilds the search index and loads the models, and serves
//! HTTP with its background workers (retention sweeper, webhook delivery) sharing one shutdown
//! signal; on exit it drains in-flight requests and joins the workers.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use actix_web::{HttpServer, web};
use http::AppState;
use services::{Services, Settings};

/// Seconds in-flight requests get to finish on shutdown.
const SHUTDOWN_GRACE_SECONDS: u64 = 30;

pub fn run(settings: &Settings) -> Result<(), String> {
    let address = settings.bind_address().map_err(|e| e.to_string())?;
    let tls = match settings.tls_enabled() {
        true => Some(crate::tls::server_config(&settings.server.tls)?),
        false => None,
    };
    let listener = TcpListener::bind(address).map_err(|e| format!("bind {address}: {e}"))?;
    // port 0 asks the kernel for a free port: the log, and `session_url` when no
    // `server.public_url` is set, name the one it gave
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    // accepted connections inherit it: a client that stops reading what it asked for is
    // dropped by the kernel instead of holding its connection and buffers for ever
    let stalled = Duration::from_secs(settings.server.stalled_client_seconds);
    socket2::SockRef::from(&listener)
        .set_tcp_user_timeout(Some(stalled))
        .map_err(|e| format!("server.stalled_client_seconds: {e}"))?;
    let mut settings = settings.clone();
    settings.server.bind = address.to_string();
    let shutdown = Arc::new(AtomicBool::new(false));
    let workers_shutdown = shutdown.clone();
    let outcome = actix_web::rt::System::new().block_on(async move {
        let starting = HttpServer::new(http::starting_app)
            .workers(1)
            .disable_signals()
            .listen(listener.try_clone().map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?
            .run();
        let starting_handle = starting.handle();
        let starting_task = actix_web::rt::spawn(starting);
        tracing::info!(%address, tls = settings.tls_enabled(), "listening; starting up");
        let prepared = web::block(move || prepare(settings, workers_shutdown))
            .await
            .map_err(|e| e.to_string())??;
        let (state, workers, http_workers) = prepared;
        let server = HttpServer::new(move || http::app(state.clone()))
            .workers(http_workers)
            .shutdown_timeout(SHUTDOWN_GRACE_SECONDS);
        let server = match tls {
            Some(config) => server.listen_rustls_0_23(listener, config),
            None => server.listen(listener),
        }
        .map_err(|e| e.to_string())?
        .run();
        starting_handle.stop(true).await;
        let _ = starting_task.await;
        tracing::info!(%address, "ready");
        let served = server.await.map_err(|e| format!("server: {e}"));
        Ok::<_, String>((served, workers))
    });
    shutdown.store(true, Ordering::SeqCst);
    let (served, workers) = outcome?;
    for worker in workers {
        let _ = worker.join();
    }
    served
}

type Prepared = (AppState, Vec<JoinHandle<()>>, usize);

/// Everything before serving: the services (database, index, models, use cases), their
/// background workers and the web layer's state.
fn prepare(settings: Settings, shutdown: Arc<AtomicBool>) -> Result<Prepared, String> {
    let services = Services::open(&settings).map_err(|e| e.to_string())?;
    let workers = services
        .spawn_workers(&shutdown)
        .map_err(|e| e.to_string())?;
    let state = http::AppStateBuilder::new(services, &settings)
        .map_err(|e| e.to_string())?
        .build();
    let http_workers = match settings.server.workers {
        0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
        n => n,
    };
    Ok((state, workers, http_workers))
}
