//! Probes: `GET /healthz` answers 200 once the models are loaded; `GET /readyz` answers 200
//! while the database is reachable. While the service starts (the listener is up at once;
//! models load, migrations run and the vector index rebuilds), [`starting`] answers every
//! request: 503 on `/healthz`, 502 `backend_starting` with `Retry-After` elsewhere.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;

use crate::AppState;
use crate::error::Code;

#[derive(Debug, Serialize)]
struct Health<'a> {
    status: &'a str,
    /// The embedder file of the default face model (kept from before face models).
    embedder: &'a str,
    default_face_model: domain::FaceModel,
    /// Every face model's embedder file (`file@sha256-prefix`).
    embedders: std::collections::BTreeMap<&'static str, &'a str>,
}

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "operations",
    responses((status = 200, description = "The models are loaded")),
)]
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    let engine = state.faces.engine();
    HttpResponse::Ok().json(Health {
        status: "ok",
        embedder: engine.embedder_id(domain::FaceModel::DEFAULT),
        default_face_model: domain::FaceModel::DEFAULT,
        embedders: domain::FaceModel::ALL
            .into_iter()
            .map(|model| (model.as_str(), engine.embedder_id(model)))
            .collect(),
    })
}

#[derive(Debug, Serialize)]
struct Ready<'a> {
    status: &'a str,
    database: &'a str,
}

#[utoipa::path(
    get,
    path = "/readyz",
    tag = "operations",
    responses(
        (status = 200, description = "The database is reachable"),
        (status = 503, description = "The database is unreachable"),
    ),
)]
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    let operations = state.operations.clone();
    let reachable = web::block(move || operations.database_reachable())
        .await
        .unwrap_or(false);
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

/// The answer to every request while the service starts.
pub async fn starting(req: HttpRequest) -> HttpResponse {
    if req.path() == "/healthz" || req.path() == "/readyz" {
        return HttpResponse::ServiceUnavailable()
            .insert_header(("Retry-After", "2"))
            .json(serde_json::json!({"status": "starting"}));
    }
    let error = crate::error::ApiError::new(
        Code::BackendStarting,
        "the service is starting (loading models, migrating, rebuilding the search index); retry shortly",
    )
    .retry_after(2);
    actix_web::ResponseError::error_response(&error)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use actix_web::test;

    #[actix_web::test]
    async fn healthz_and_readyz_answer_ok() {
        let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let dir = tempfile::tempdir().expect("temp dir");
        let settings = services::Settings::for_tests(dir.path(), &models);
        let services = services::Services::open(&settings).expect("services");
        let state = crate::AppStateBuilder::new(services, &settings)
            .expect("web settings")
            .build();
        let app = test::init_service(crate::app(state)).await;
        let get = |uri: &str| test::TestRequest::get().uri(uri).to_request();
        let response = test::call_service(&app, get("/healthz")).await;
        assert!(response.status().is_success());
        let body: serde_json::Value = test::read_body_json(response).await;
        assert_eq!(body["status"], "ok");
        let response = test::call_service(&app, get("/readyz")).await;
        assert!(response.status().is_success());
        assert!(response.headers().contains_key("x-request-id"));
        let response = test::call_service(&app, get("/metrics")).await;
        let text = String::from_utf8(test::read_body(response).await.to_vec()).expect("utf-8");
        let healthz =
            r#"facegate_http_requests_total{method="GET",route="/healthz",status="200"} 1"#;
        assert!(text.contains(healthz), "{text}");
        assert!(text.contains("facegate_http_request_duration_seconds_bucket"));
        assert!(text.contains(r#"facegate_inference_runs_total{model="embedder"}"#));
    }
}
