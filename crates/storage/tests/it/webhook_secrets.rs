//! Webhook signing secrets under rotation: the newest secret is the current one even when
//! rotations follow each other within one millisecond (they share `created_at`).

use crate::common;

#[test]
fn back_to_back_rotations_keep_the_newest_secret_current() {
    for (backend, db) in common::backends() {
        let store = &db.store;
        let tenant = store.create_tenant("t").expect("tenant").id;
        let mut previous = store.webhook_secret(tenant).expect("first secret");
        for round in 0..40 {
            let rotated = store.rotate_webhook_secret(tenant, 60_000).expect("rotate");
            assert_eq!(
                store.webhook_secret(tenant).expect("current"),
                rotated,
                "{backend}: round {round}: the rotation's secret is the current one"
            );
            let in_force = store.webhook_secrets(tenant).expect("in force");
            assert_eq!(in_force.first(), Some(&rotated), "{backend}: newest first");
            assert!(
                in_force.contains(&previous),
                "{backend}: overlap keeps the last"
            );
            previous = rotated;
        }
    }
}
