//! Probes one position: `cargo run -p bitboards-syzygy --example probe -- DIR FEN`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: probe DIR FEN";
    let dir = args.next().ok_or(usage)?;
    let fen = args.next().ok_or(usage)?;
    let mut tables = bitboards_syzygy::Tablebase::new();
    tables.add_directory(dir)?;
    let position = bitboards::Position::from_fen(&fen)?;
    println!("wdl {:?}", tables.probe_wdl(&position)?);
    println!("dtz {:?}", tables.probe_dtz(&position)?);
    for ranked in tables.best_moves(&position)? {
        println!(
            "{} {:?} {:?}",
            position.san(ranked.mv),
            ranked.wdl,
            ranked.dtz
        );
    }
    Ok(())
}
