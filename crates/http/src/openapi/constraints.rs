//! What the validators enforce on parameters, written into the served OpenAPI document, so a
//! third-party client (schemathesis, a generated SDK) is held to exactly what the server
//! checks, by rules shared by every route: identifier patterns and lengths and UUID path
//! segments (by the parameter's place and name, where the route's own annotation states no
//! bounds), and the 413 and 415 answers of every JSON body. Query parameters state their own
//! bounds on their typed structs (`crate::params`). Nothing is
//! written in by path: what one route alone enforces (the session list's filters, the 401/429
//! of the routes that take a key or a token) is in that route's `#[utoipa::path]`, and the
//! optional body of `POST /api/v1/session` beside it (`routes::sessions::OptionalDirectBody`).
//!
//! What a schema cannot state, that an uploaded file is a decodable JPEG, PNG or WebP image
//! with a face, is documented in the forms and `docs/api.md` and configured for schemathesis in
//! `tests/schemathesis.toml`.

use serde_json::{Value, json};

/// `external_id` and `external_face_id`: `domain::ExternalId`'s rule.
pub const EXTERNAL_ID_PATTERN: &str = "^[A-Za-z0-9_.:-]{1,255}$";
/// A UUID in its hyphenated form, as `Uuid::parse_str` reads path segments.
const UUID_PATTERN: &str =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/// The schema the server enforces on a parameter, by where it is and its name: the rules
/// shared by every route with such a parameter.
fn parameter_schema(location: &str, name: &str) -> Option<Value> {
    Some(match (location, name) {
        ("path", "external_id") => json!({
            "type": "string", "minLength": 1, "maxLength": 255, "pattern": EXTERNAL_ID_PATTERN,
        }),
        ("path", "face_id" | "id") => json!({
            "type": "string", "format": "uuid", "pattern": UUID_PATTERN,
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
    for item in paths.values_mut() {
        let Some(operations) = item.as_object_mut() else {
            continue;
        };
        for operation in operations.values_mut() {
            constrain_operation(operation);
        }
    }
}

/// Whether a parameter's schema states bounds of its own (its route's annotation): the shared
/// rules leave it as it is.
fn bounded(schema: &Value) -> bool {
    // not `minimum`: utoipa writes a bare 0 for every unsigned type
    ["maximum", "minLength", "maxLength", "pattern", "enum"]
        .iter()
        .any(|key| schema.get(key).is_some())
}

fn constrain_operation(operation: &mut Value) {
    if let Some(parameters) = operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
    {
        for parameter in parameters {
            let location = parameter["in"].as_str().unwrap_or_default().to_owned();
            let name = parameter["name"].as_str().unwrap_or_default().to_owned();
            if bounded(&parameter["schema"]) {
                continue;
            }
            if let Some(schema) = parameter_schema(&location, &name) {
                parameter["schema"] = schema;
            }
        }
    }
    let takes_json = operation["requestBody"]["content"]
        .get("application/json")
        .is_some();
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
}
