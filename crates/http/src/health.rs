//! Probes: `GET /healthz` answers 200 once the models are loaded (the server only starts
//! listening after loading them); `GET /readyz` answers 200 while the database is reachable.

use actix_web::{HttpResponse, web};
use serde::Serialize;

use crate::AppState;

#[derive(Debug, Serialize)]
struct Health<'a> {
    status: &'a str,
    embedder: &'a str,
}

pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(Health {
        status: "ok",
        embedder: state.engine.embedder_id(),
    })
}

#[derive(Debug, Serialize)]
struct Ready<'a> {
    status: &'a str,
    database: &'a str,
}

pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let search = state.search.clone();
    let reachable = web::block(move || search.store().ping())
        .await
        .is_ok_and(|r| r.is_ok());
    if reachable {
        HttpResponse::Ok().json(Ready {
            status: "ready",
            database: "reachable",
        })
    } else {
        HttpResponse::ServiceUnavailable().json(Ready {
            status: "not_ready",
            database: "unreachable",
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use actix_web::{App, test};

    use crate::{AppState, configure};

    #[actix_web::test]
    async fn healthz_and_readyz_answer_ok() {
        let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let engine = Arc::new(face_engine::FaceEngine::load(&models).expect("models"));
        let dir = tempfile::tempdir().expect("temp dir");
        let url = dir.path().join("t.db").to_string_lossy().into_owned();
        let secret = storage::ServerSecret::new(b"secret".to_vec());
        let store = storage::Store::open(&url, secret).expect("store");
        let search = Arc::new(storage::search::FaceSearch::new(store));
        let limits = crate::ratelimit::RateLimits {
            per_second: 0,
            per_minute: 0,
        };
        let limiter = Arc::new(crate::ratelimit::RateLimiter::new(limits));
        let state = AppState {
            engine,
            search,
            limiter,
        };
        let app = test::init_service(App::new().configure(configure(state))).await;
        let get = |uri: &str| test::TestRequest::get().uri(uri).to_request();
        let response = test::call_service(&app, get("/healthz")).await;
        assert!(response.status().is_success());
        let body: serde_json::Value = test::read_body_json(response).await;
        assert_eq!(body["status"], "ok");
        let response = test::call_service(&app, get("/readyz")).await;
        assert!(response.status().is_success());
    }
}
