//! Liveness probe: `GET /healthz` answers 200 once the models are loaded (the server only
//! starts listening after loading them).

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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use actix_web::{App, test};

    use crate::{AppState, configure};

    #[actix_web::test]
    async fn healthz_answers_ok_with_loaded_models() {
        let models = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let engine = Arc::new(face_engine::FaceEngine::load(&models).expect("models"));
        let app = test::init_service(App::new().configure(configure(AppState { engine }))).await;
        let response =
            test::call_service(&app, test::TestRequest::get().uri("/healthz").to_request()).await;
        assert!(response.status().is_success());
        let body: serde_json::Value = test::read_body_json(response).await;
        assert_eq!(body["status"], "ok");
    }
}
