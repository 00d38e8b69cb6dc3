//! Diesel table definitions shared by both backends (portable column types only: text ids,
//! BIGINT unix-millisecond timestamps, binary blobs, doubles).

diesel::table! {
    tenants (id) {
        id -> Text,
        name -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    api_keys (id) {
        id -> Text,
        tenant_id -> Text,
        digest -> Binary,
        created_at -> BigInt,
        revoked_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    collections (id) {
        id -> Text,
        tenant_id -> Text,
        external_id -> Text,
        description -> Text,
        created_at -> BigInt,
        version -> BigInt,
        face_model -> Text,
    }
}

diesel::table! {
    faces (id) {
        id -> Text,
        tenant_id -> Text,
        collection_id -> Text,
        external_face_id -> Text,
        model_id -> Text,
        embedding -> Binary,
        detail -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    sessions (id) {
        id -> Text,
        tenant_id -> Text,
        kind -> Text,
        mode -> Text,
        status -> Text,
        token_digest -> Binary,
        reference_id -> Nullable<Text>,
        redirect_url -> Nullable<Text>,
        webhook_url -> Nullable<Text>,
        fingerprint_id -> Nullable<Text>,
        challenge_count -> Integer,
        attempt_number -> Integer,
        max_attempts -> Integer,
        verdict -> Nullable<Text>,
        confidence -> Nullable<Double>,
        photo -> Nullable<Binary>,
        photo_quality_score -> Nullable<Double>,
        created_at -> BigInt,
        expires_at -> BigInt,
        completed_at -> Nullable<BigInt>,
        layers -> Nullable<Text>,
        reference_embedding -> Nullable<Binary>,
        match_threshold -> Nullable<Double>,
        face_match -> Nullable<Text>,
        draw_seed -> Nullable<Binary>,
        reference_face_model -> Nullable<Text>,
        allow_no_flash -> Bool,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Text,
        tenant_id -> Text,
        session_id -> Text,
        url -> Text,
        payload -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
        last_error -> Nullable<Text>,
        created_at -> BigInt,
        lease_token -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Text,
        delivery_id -> Text,
        attempt -> Integer,
        started_at -> BigInt,
        duration_ms -> BigInt,
        status_code -> Nullable<Integer>,
        outcome -> Text,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_secrets (id) {
        id -> Text,
        tenant_id -> Text,
        sealed -> Binary,
        created_at -> BigInt,
        retires_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    session_attempts (id) {
        id -> Text,
        subject -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    request_counters (name, window_start) {
        name -> Text,
        window_start -> BigInt,
        hits -> BigInt,
        expires_at -> BigInt,
    }
}

diesel::table! {
    deployment_facts (name) {
        name -> Text,
        value -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    session_streams (session_id) {
        session_id -> Text,
        holder -> Text,
        lease_until -> BigInt,
    }
}

diesel::table! {
    session_audit_frames (session_id, position) {
        session_id -> Text,
        position -> Integer,
        tenant_id -> Text,
        sealed -> Binary,
        created_at -> BigInt,
    }
}

diesel::table! {
    erased_sessions (session_id) {
        session_id -> Text,
        tenant_id -> Text,
        erased_at -> BigInt,
    }
}

diesel::allow_tables_to_appear_in_same_query!(
    tenants,
    api_keys,
    collections,
    faces,
    sessions,
    session_audit_frames,
    webhook_deliveries
);
