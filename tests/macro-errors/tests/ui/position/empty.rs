use bitboards::position;

fn main() {
    let _ = position! {};
}
