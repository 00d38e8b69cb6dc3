//! What the validators enforce on parameters, written into the served OpenAPI document, so a
//! third-party client (schemathesis, a generated SDK) is held to exactly what the server
//! checks: identifier patterns and lengths, page and search bounds, UUID path segments, the
//! 413 and 415 answers of every JSON body, the optional body of `POST /api/v1/session`, and the
//! 401/429 answers of the routes that take either an API key or a session token.
//!
//! What a schema cannot state, that an uploaded file is a decodable JPEG, PNG or WebP image
//! with a face, is documented in the forms and `docs/api.md` and configured for schemathesis in
//! `tests/schemathesis.toml`.

use serde_json::{Value, json};

use crate::params::MAX_MAX;

/// `external_id` and `external_face_id`: `domain::ExternalId`'s rule.
pub const EXTERNAL_ID_PATTERN: &str = "^[A-Za-z0-9_.:-]{1,255}$";
/// A UUID in its hyphenated form, as `Uuid::parse_str` reads path segments.
const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// The session list's `next_token`: `SessionCursor::token` (creation time, a dot, the id).
const SESSION_TOKEN_PATTERN: &str = r"^[0-9]{1,15}\.[0-9a-f]{32}$";

/// The schema the server enforces on a query parameter of the session list.
fn session_list_parameter(name: &str) -> Option<Value> {
    use sessions::records::{DEFAULT_PAGE, MAX_PAGE};
    Some(match name {
        "reference_id" => json!({
            "type": "string", "minLength": 1, "maxLength": 256,
            "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]{1,256}$",
        }),
        "status" => json!({"type": "string", "enum": ["created", "in_progress", "completed"]}),
        "verdict" => json!({"type": "string", "enum": ["pass", "fail", "retry"]}),
        "created_after" | "created_before" => json!({
            "type": "integer", "format": "int64", "minimum": 0,
        }),
        "max_results" => json!({
            "type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": DEFAULT_PAGE,
        }),
        "next_token" => json!({"type": "string", "pattern": SESSION_TOKEN_PATTERN}),
        _ => return None,
    })
}

/// The schema the server enforces on a parameter of `path`, by where it is and its name.
fn parameter_schema(path: &str, location: &str, name: &str) -> Option<Value> {
    if path == "/api/v1/sessions" && location == "query" {
        return session_list_parameter(name);
    }
    Some(match (location, name) {
        ("path", "external_id") => json!({
            "type": "string", "minLength": 1, "maxLength": 255, "pattern": EXTERNAL_ID_PATTERN,
        }),
        ("path", "face_id" | "id") => json!({
            "type": "string", "format": "uuid", "pattern": UUID_PATTERN,
        }),
        ("query", "max_results" | "max_faces") => json!({
            "type": "integer", "minimum": 1, "maximum": MAX_MAX, "default": crate::params::DEFAULT_MAX,
        }),
        ("query", "min_similarity") => json!({
            "type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.0,
        }),
        _ => return None,
    })
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    })
}

/// Adds `status` to `responses` unless it is documented already.
fn ensure_response(responses: &mut Value, status: &str, description: &str) {
    if let Some(map) = responses.as_object_mut() {
        map.entry(status)
            .or_insert_with(|| error_response(description));
    }
}

/// A session's result carries the detail fields (`mode`, `layers`, `reasons`, …) only for the
/// owning tenant's API key, flattened into the same object: utoipa states that as "null or a
/// `ResultDetail`", which no object read with a token matches. The document says what is
/// served: the detail's properties, each optional.
fn optional_result_detail(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    let mut detail = schemas["ResultDetail"].clone();
    if !detail.is_object() {
        return;
    }
    if let Some(map) = detail.as_object_mut() {
        map.remove("required");
        map.insert(
            "description".into(),
            json!("Present only when read with the owning tenant's API key."),
        );
    }
    if let Some(parts) = schemas["SessionResultView"]["allOf"].as_array_mut()
        && let Some(first) = parts.first_mut()
    {
        *first = detail;
    }
}

/// Writes the server's constraints into `doc` (the document utoipa assembled, as JSON).
pub fn constrain(doc: &mut Value) {
    optional_result_detail(doc);
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for (path, item) in paths.iter_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for (method, operation) in operations.iter_mut() {
            constrain_operation(path, method, operation);
        }
    }
}

fn constrain_operation(path: &str, method: &str, operation: &mut Value) {
    if let Some(parameters) = operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
    {
        for parameter in parameters {
            let location = parameter["in"].as_str().unwrap_or_default().to_owned();
            let name = parameter["name"].as_str().unwrap_or_default().to_owned();
            if let Some(schema) = parameter_schema(path, &location, &name) {
                parameter["schema"] = schema;
            }
        }
    }
    let takes_json = operation["requestBody"]["content"]
        .get("application/json")
        .is_some();
    if path == "/api/v1/session" && method == "post" {
        // `{}` or no body at all is accepted
        operation["requestBody"]["required"] = json!(false);
    }
    let responses = &mut operation["responses"];
    if takes_json {
        ensure_response(
            responses,
            "413",
            "the JSON body is over 64 KB (`invalid_json`)",
        );
        ensure_response(
            responses,
            "415",
            "the body is not `application/json` (`invalid_json`)",
        );
    }
    if path.starts_with("/api/v1/session/") || path == "/api/v1/compare-with-session" {
        // these take either an API key or the session's token
        ensure_response(
            responses,
            "401",
            "an `Authorization` header with a key that is not valid (`unauthorized`)",
        );
        ensure_response(
            responses,
            "429",
            "over the key's rate limit (`rate_limited`), or this address is locked out \
             (`too_many_failed_attempts`)",
        );
    }
}
