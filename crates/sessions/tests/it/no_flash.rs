//! The no-flash path through the session service: head turns without colours where the
//! session allows it, a refusal where it does not, and a deployment that turned it off.

use std::sync::Arc;

use domain::LivenessPath;
use facegate_sessions::SessionError;
use facegate_sessions::create::ManagedSessionRequest;
use facegate_sessions::live::ClientMessage;

use crate::common::{Recorder, create, fixture, replica};

#[test]
fn the_no_flash_path_asks_head_turns_without_colours_only_where_the_session_allows_it() {
    let f = fixture();
    let service = replica(&f, Some(11));
    let (id, token) = create(&service, f.tenant, "passive");
    let recorder = Arc::new(Recorder::default());
    let stream = service
        .connect(id, &token, LivenessPath::NoFlash, recorder.clone())
        .expect("stream");
    let messages = recorder.messages.lock().clone();
    assert_eq!(
        messages,
        vec![ClientMessage::Ready {
            mode: domain::SessionMode::Passive,
            challenge_count: 3,
            liveness_path: LivenessPath::NoFlash,
            max_fps: facegate_sessions::live::MAX_FPS,
        }],
        "no illumination message on the no-flash path"
    );
    drop(stream);

    let refused_session = service
        .create_managed(
            f.tenant,
            ManagedSessionRequest {
                mode: Some("passive".into()),
                allow_no_flash: Some(false),
                ..ManagedSessionRequest::default()
            },
        )
        .expect("created");
    assert!(!refused_session.session.allow_no_flash);
    let refused = service.connect(
        refused_session.session.id,
        &refused_session.token,
        LivenessPath::NoFlash,
        Arc::new(Recorder::default()),
    );
    assert!(
        matches!(refused, Err(SessionError::NoFlashNotAllowed)),
        "{refused:?}"
    );
    // the same session on the light path streams, with its colours
    let lit = Arc::new(Recorder::default());
    let _stream = service
        .connect(
            refused_session.session.id,
            &refused_session.token,
            LivenessPath::Light,
            lit.clone(),
        )
        .expect("the light path");
    assert!(matches!(
        lit.messages.lock().as_slice(),
        [
            ClientMessage::Ready {
                challenge_count: 0,
                liveness_path: LivenessPath::Light,
                ..
            },
            ClientMessage::Illumination { .. }
        ]
    ));
}

#[test]
fn a_managed_session_cannot_allow_the_no_flash_path_a_deployment_turned_off() {
    let f = fixture();
    let mut settings = f.settings.clone();
    settings.liveness.illumination.allow_no_flash = false;
    let service = services::Services::open(&settings)
        .expect("services")
        .sessions;
    let asked = service.create_managed(
        f.tenant,
        ManagedSessionRequest {
            allow_no_flash: Some(true),
            ..ManagedSessionRequest::default()
        },
    );
    assert!(
        matches!(asked, Err(SessionError::NoFlashDisabled)),
        "{asked:?}"
    );
    let created = service
        .create_managed(f.tenant, ManagedSessionRequest::default())
        .expect("created with the deployment's default");
    assert!(!created.session.allow_no_flash);
}
