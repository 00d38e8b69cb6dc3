//! Opening a session on the no-flash path: no colours drawn or shown, a passive session asks
//! head turns (alternating, as many as `min_challenges`) and is judged as an active one, the
//! same turns on every opening of the same seed, and an active session keeps its challenges.

use liveness_rig::eval::engine;

use facegate_liveness_engine::{
    ChallengeKind, LivenessConfig, LivenessPath, LivenessSession, NO_FLASH_CHALLENGES, Opening,
    SessionMode,
};
use rand::SeedableRng;

fn open(mode: SessionMode, seed: u64, opening: Opening, path: LivenessPath) -> LivenessSession {
    LivenessSession::new(
        engine(),
        LivenessConfig::default(),
        mode,
        &mut rand::rngs::StdRng::seed_from_u64(seed),
        opening,
        path,
    )
    .expect("session")
}

#[test]
fn a_passive_session_on_the_no_flash_path_asks_alternating_head_turns_and_shows_no_colour() {
    for seed in 0..8 {
        let session = open(
            SessionMode::Passive,
            seed,
            Opening::First,
            LivenessPath::NoFlash,
        );
        assert!(session.illumination().is_none(), "no colours (seed {seed})");
        assert_eq!(session.liveness_path(), LivenessPath::NoFlash);
        assert_eq!(session.mode(), SessionMode::Active, "judged as active");
        let plan = session.challenge_plan();
        assert_eq!(plan.len(), LivenessConfig::default().min_challenges);
        assert!(
            plan.iter().all(|k| NO_FLASH_CHALLENGES.contains(k)),
            "{plan:?}"
        );
        assert!(plan.windows(2).all(|pair| pair[0] != pair[1]), "{plan:?}");
        // a reconnect of the same session asks the same turns
        let again = open(
            SessionMode::Passive,
            seed,
            Opening::Reconnect,
            LivenessPath::NoFlash,
        );
        assert_eq!(again.challenge_plan(), plan);
    }
    // both orders are drawn
    let firsts: std::collections::BTreeSet<String> = (0..16)
        .map(|seed| {
            let session = open(
                SessionMode::Passive,
                seed,
                Opening::First,
                LivenessPath::NoFlash,
            );
            format!("{:?}", session.challenge_plan()[0])
        })
        .collect();
    assert_eq!(firsts.len(), 2, "{firsts:?}");
}

#[test]
fn the_light_path_shows_colours_and_an_active_session_keeps_its_challenges_without_them() {
    let lit = open(SessionMode::Passive, 3, Opening::First, LivenessPath::Light);
    assert!(lit.illumination().is_some());
    assert_eq!(lit.liveness_path(), LivenessPath::Light);
    assert_eq!(lit.mode(), SessionMode::Passive);
    assert!(lit.challenge_plan().is_empty());
    let active_lit = open(SessionMode::Active, 3, Opening::First, LivenessPath::Light);
    let active_dark = open(
        SessionMode::Active,
        3,
        Opening::First,
        LivenessPath::NoFlash,
    );
    assert!(active_dark.illumination().is_none());
    assert_eq!(active_dark.challenge_plan(), active_lit.challenge_plan());
    assert!(
        active_dark
            .challenge_plan()
            .iter()
            .all(|k| ChallengeKind::ALL.contains(k))
    );
}
