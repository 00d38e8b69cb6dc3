//! Unit tests of the challenge tracker: neutral → action → neutral, timeouts and the return grace.
use super::*;
use rand::SeedableRng;

#[test]
fn draws_stay_in_bounds_and_never_repeat_a_kind_back_to_back() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut orders = std::collections::HashSet::new();
    for _ in 0..500 {
        let drawn = draw_challenges(&mut rng, 3, 6);
        assert!((3..=6).contains(&drawn.len()));
        assert!(drawn.windows(2).all(|w| w[0] != w[1]));
        orders.insert(drawn);
    }
    assert!(orders.len() > 100, "only {} distinct orders", orders.len());
}

const BASELINE: Baseline = Baseline {
    yaw: 0.0,
    eye_openness: 0.3,
    mouth_width: 0.55,
};
const RESTING: ActionReading = ActionReading {
    yaw: 0.0,
    eye_openness: 0.3,
    mouth_width: 0.55,
};

/// A smile asked at 1 s, with enough resting faces seen after it for its timeout to count.
fn rested_smile(index: usize) -> ChallengeTracker {
    let mut tracker = ChallengeTracker::new(ChallengeKind::Smile, index, 1_000);
    for k in 1..=FACES_BEFORE_TIMEOUT as u64 {
        tracker.update(&BASELINE, 1_000 + 100 * k, Some(&RESTING), 7_000);
    }
    tracker
}

#[test]
fn a_challenge_times_out_after_its_time_once_enough_faces_were_seen() {
    let mut tracker = rested_smile(0);
    assert_eq!(tracker.state, ChallengeState::AwaitAction);
    let state = tracker.update(&BASELINE, 8_001, Some(&RESTING), 7_000);
    assert_eq!(state, ChallengeState::TimedOut);
}

#[test]
fn a_server_that_saw_few_faces_waits_up_to_twice_the_timeout_for_the_action() {
    let mut tracker = ChallengeTracker::new(ChallengeKind::Smile, 0, 1_000);
    tracker.update(&BASELINE, 2_000, Some(&RESTING), 7_000);
    // past the timeout, but only two faces seen: the smile still counts
    let smiling = ActionReading {
        mouth_width: 0.68,
        ..RESTING
    };
    assert_eq!(
        tracker.update(&BASELINE, 9_000, Some(&smiling), 7_000),
        ChallengeState::AwaitReturn
    );
    assert_eq!(
        tracker.update(&BASELINE, 10_000, Some(&RESTING), 7_000),
        ChallengeState::Passed
    );
    // one that sees nothing ends at twice the timeout
    let mut unseen = ChallengeTracker::new(ChallengeKind::Smile, 1, 1_000);
    assert_eq!(
        unseen.update(&BASELINE, 14_000, None, 7_000),
        ChallengeState::AwaitNeutral
    );
    assert_eq!(
        unseen.update(&BASELINE, 15_001, None, 7_000),
        ChallengeState::TimedOut
    );
}

#[test]
fn a_smile_counts_once_the_mouth_relaxes_halfway_even_above_the_resting_bar() {
    let mut tracker = ChallengeTracker::new(ChallengeKind::Smile, 0, 1_000);
    let mouth = |mouth_width| ActionReading {
        mouth_width,
        ..RESTING
    };
    tracker.update(&BASELINE, 1_100, Some(&RESTING), 7_000);
    // a smile at 1.30x the resting width
    tracker.update(&BASELINE, 1_200, Some(&mouth(0.715)), 7_000);
    // still smiling: more than halfway up
    assert_eq!(
        tracker.update(&BASELINE, 1_300, Some(&mouth(0.66)), 7_000),
        ChallengeState::AwaitReturn
    );
    // relaxed to 1.10x: above the resting bar of 1.06x, but back past half the smile
    assert_eq!(
        tracker.update(&BASELINE, 1_400, Some(&mouth(0.605)), 7_000),
        ChallengeState::Passed
    );
    assert!((tracker.peak_strength() - 1.0).abs() < 1e-6);
}

#[test]
fn an_action_seen_in_time_may_be_seen_back_at_rest_within_the_grace() {
    let smiling = ActionReading {
        mouth_width: 0.68,
        ..RESTING
    };
    let mut tracker = rested_smile(0);
    // the smile comes just before the timeout, the relaxed face past it
    assert_eq!(
        tracker.update(&BASELINE, 7_900, Some(&smiling), 7_000),
        ChallengeState::AwaitReturn
    );
    assert_eq!(
        tracker.update(&BASELINE, 8_500, Some(&smiling), 7_000),
        ChallengeState::AwaitReturn
    );
    assert_eq!(
        tracker.update(&BASELINE, 9_000, Some(&RESTING), 7_000),
        ChallengeState::Passed
    );
    // a face still acting when the grace is over has timed out, and says it acted
    let mut held = rested_smile(1);
    held.update(&BASELINE, 7_900, Some(&smiling), 7_000);
    assert_eq!(
        held.update(&BASELINE, 11_001, Some(&smiling), 7_000),
        ChallengeState::TimedOut
    );
    assert!(held.acted_without_return());
    // an action that comes only after the timeout is never seen
    let mut late = rested_smile(2);
    assert_eq!(
        late.update(&BASELINE, 8_100, Some(&smiling), 7_000),
        ChallengeState::TimedOut
    );
    assert!(!late.acted_without_return());
}

#[test]
fn a_turn_held_at_its_peak_is_not_a_return() {
    let mut tracker = ChallengeTracker::new(ChallengeKind::TurnLeft, 0, 1_000);
    let yaw = |yaw| ActionReading { yaw, ..RESTING };
    tracker.update(&BASELINE, 1_100, Some(&RESTING), 7_000);
    tracker.update(&BASELINE, 1_200, Some(&yaw(24.0)), 7_000);
    assert_eq!(
        tracker.update(&BASELINE, 1_300, Some(&yaw(20.0)), 7_000),
        ChallengeState::AwaitReturn
    );
    assert_eq!(
        tracker.update(&BASELINE, 1_400, Some(&yaw(11.0)), 7_000),
        ChallengeState::Passed
    );
}
