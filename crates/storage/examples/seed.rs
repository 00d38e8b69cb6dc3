//! Seeds a database with N random 512-d faces in one collection of one tenant, for load tests
//! of search over HTTP. Usage: seed DATABASE_URL TENANT COLLECTION N (the server secret does
//! not matter here: no key is created).

use domain::ExternalId;
use facegate_storage::{ServerSecret, Store};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, tenant, collection, n] = args.as_slice() else {
        eprintln!("usage: seed DATABASE_URL TENANT COLLECTION N");
        std::process::exit(2);
    };
    let n: u64 = n.parse().expect("N is a number");
    let store = Store::open(url, ServerSecret::new(b"seed".to_vec())).expect("open");
    let tenant = store.ensure_tenant(tenant).expect("tenant").id;
    let collection = ExternalId::parse("external_id", collection).expect("collection id");
    if store.collection(tenant, &collection).is_err() {
        store
            .create_collection(
                tenant,
                &collection,
                "load test",
                domain::FaceModel::FrFeature,
            )
            .expect("collection");
    }
    let mut first = None;
    for i in 0..n {
        let v = facegate_storage::vector::pseudo_random_unit_vector(i, 512);
        let id = ExternalId::parse("external_face_id", &format!("user-{i}")).expect("id");
        let (face, _) = store
            .insert_face(tenant, &collection, &id, "seed", &v, "{}")
            .expect("insert");
        first.get_or_insert(face.id);
    }
    println!("{}", first.map(|f| f.to_string()).unwrap_or_default());
}
