//! Re-encodes an image scaled to about one megapixel as a JPEG (load-test inputs).
//! Usage: one_megapixel IN OUT.jpg

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let img = image::open(&args[1]).expect("readable image");
    let scale = (1_000_000.0 / f64::from(img.width() * img.height())).sqrt();
    let resized = img.resize(
        (f64::from(img.width()) * scale) as u32,
        (f64::from(img.height()) * scale) as u32,
        image::imageops::FilterType::Triangle,
    );
    resized.save(&args[2]).expect("writable output");
}
